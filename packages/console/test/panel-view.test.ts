import { PanelView } from '../src/browser/panel-view.js';

// A panel's read that fails (a 404, a 503) must not leave what it showed of another field, place
// or feed on show as if it were the one asked for.
describe('what a panel shows of its reads', () => {
  it("shows a failed read of another key as failed, without the earlier key's answer", () => {
    const view = new PanelView<string[]>();
    expect(view.answered('field-a', ['Frost on A'])).toEqual({ key: 'field-a', answer: ['Frost on A'], error: null });
    const failed = view.failed('field-b', Object.assign(new Error('alerts: unavailable'), { status: 503 }));
    expect(failed).toEqual({ key: 'field-b', answer: null, error: 'alerts: unavailable' });
  });

  it('keeps the same key’s answer marked as failed, and shows it as current once read again', () => {
    const view = new PanelView<string[]>();
    view.answered('/events', ['Field North 40 was created']);
    expect(view.failed('/events', new Error('events: unavailable'))).toEqual({
      key: '/events',
      answer: ['Field North 40 was created'],
      error: 'events: unavailable',
    });
    expect(view.answered('/events', [])).toEqual({ key: '/events', answer: [], error: null });
  });

  it('drops what an earlier key answered once another key failed, should the first be asked again and fail', () => {
    const view = new PanelView<string[]>();
    view.answered('a', ['A']);
    view.failed('b', new Error('gone'));
    expect(view.failed('a', new Error('gone')).answer).toBeNull();
  });
});
