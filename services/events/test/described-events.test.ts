import { resourceEvent } from '@fieldcast/bus';
import { EVENT_MESSAGE_MAX } from '@fieldcast/schemas';
import { eventFromCloudEvent, PoisonMessage } from '../src/domain/translate.js';

// docs/decisions/0123-events-described-by-their-emitter.md
const JOB = '0b0e6f0e-3c8a-5d6e-9f7a-1a2b3c4d5e6f';
const FRAME = '1b0e6f0e-3c8a-5d6e-9f7a-1a2b3c4d5e6f';
const PRODUCT = '2b0e6f0e-3c8a-5d6e-9f7a-1a2b3c4d5e6f';
const NOW = new Date('2025-06-15T10:00:00Z');

function frameCreated(event: unknown) {
  const ce = resourceEvent({
    area: 'platform',
    resource: 'frame',
    action: 'created',
    subject: FRAME,
    time: new Date('2025-06-15T09:00:00Z'),
    data: {
      account: null,
      resource: { id: FRAME },
      related: [
        { namespace: 'platform/frames', id: FRAME },
        { namespace: 'platform/products', id: PRODUCT },
      ],
      event: event as never,
    },
  });
  return JSON.stringify(ce);
}

describe('resource events described by their emitter', () => {
  it('takes the origin, namespace and message the area gave, tagging origin then related', () => {
    const e = eventFromCloudEvent(
      'fieldcast.platform.frames',
      frameCreated({
        origin: { namespace: 'platform/jobs', id: JOB.toUpperCase() },
        namespace: 'platform/frames/created',
        message: 'Job {} built frame {} of product {}',
      }),
      '3b0e6f0e-3c8a-4d6e-9f7a-1a2b3c4d5e6f',
      NOW,
    );
    expect(e).toMatchObject({
      app: 'platform',
      origin: { namespace: 'platform/jobs', id: JOB },
      namespace: 'platform/frames/created',
      message: 'Job {} built frame {} of product {}',
      tagged: [
        { namespace: 'platform/jobs', id: JOB },
        { namespace: 'platform/frames', id: FRAME },
        { namespace: 'platform/products', id: PRODUCT },
      ],
      ownerAccount: null,
    });
    expect(e.occurrenceTime.toISOString()).toBe('2025-06-15T09:00:00.000Z');
  });

  it('keeps the default wording without data.event', () => {
    const e = eventFromCloudEvent('fieldcast.platform.frames', frameCreated(undefined), '3b0e6f0e-3c8a-4d6e-9f7a-1a2b3c4d5e6f', NOW);
    expect(e.namespace).toBe('platform/frames/created');
    expect(e.origin).toEqual({ namespace: 'platform/frames', id: FRAME });
    expect(e.message).toBe('Frame {} was created (with {})');
  });

  it('words a resource named in two words, as its type spells it with a hyphen, as two words', () => {
    const SET = '4b0e6f0e-3c8a-4d6e-9f7a-1a2b3c4d5e6f';
    const ce = resourceEvent({
      area: 'observations',
      resource: 'observation-set',
      action: 'published',
      subject: SET,
      time: NOW,
      data: { account: null, resource: { id: SET } },
    });
    const e = eventFromCloudEvent('fieldcast.observations.sets', JSON.stringify(ce), '5b0e6f0e-3c8a-4d6e-9f7a-1a2b3c4d5e6f', NOW);
    expect(e.message).toBe('Observation set {} was published');
  });

  it('takes a message of as many characters as an event’s may hold, counting code points as every text limit does (0485)', () => {
    const message = `Frame {} was created (with {}) ${'🌽'.repeat(EVENT_MESSAGE_MAX - 31)}`;
    expect([...message]).toHaveLength(EVENT_MESSAGE_MAX);
    const e = eventFromCloudEvent('fieldcast.platform.frames', frameCreated({ message }), '3b0e6f0e-3c8a-4d6e-9f7a-1a2b3c4d5e6f', NOW);
    expect(e.message).toBe(message);
  });

  it.each([
    ['another area’s namespace', { namespace: 'events/frames/created' }],
    ['another area’s origin', { origin: { namespace: 'agriculture/fields', id: JOB } }],
    ['an origin without a UUID', { origin: { namespace: 'platform/jobs', id: 'job-1' } }],
    ['a message whose slots do not match the tags', { message: 'Frame {} was built' }],
    ['an empty message', { message: '' }],
    ['a message past the events’ limit', { message: `Frame {} was created (with {}) ${'x'.repeat(EVENT_MESSAGE_MAX)}` }],
    ['a value that is no object', 'created'],
  ])('dead-letters %s', (_what, event) => {
    expect(() =>
      eventFromCloudEvent('fieldcast.platform.frames', frameCreated(event), '3b0e6f0e-3c8a-4d6e-9f7a-1a2b3c4d5e6f', NOW),
    ).toThrow(PoisonMessage);
  });
});
