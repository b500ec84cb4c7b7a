import { fillSlots, ResourceLabels } from '../src/browser/event-slots.js';

/*
 * Spec 2.10: an event's message has one `{}` per tagged resource, in tagging order; the console
 * shows a person the resources there, not the braces (docs/decisions/0123-events-described-by-their-emitter.md).
 */
const JOB = { namespace: 'platform/jobs', id: '9b2e61d4-5a0c-5d7e-8f3a-1c2d3e4f5a6b' };
const FRAME = { namespace: 'platform/frames', id: '3f1c2a70-1111-5000-8000-000000000001' };
const PRODUCT = { namespace: 'platform/products', id: '3f1c2a70-2222-5000-8000-000000000002' };
const RUN = { namespace: 'platform/forecasts', id: '3f1c2a70-3333-5000-8000-000000000003' };
const RULE = { namespace: 'alerts/rules', id: '3f1c2a70-4444-4000-8000-000000000004' };
const UNNAMED_RULE = { namespace: 'alerts/rules', id: '3f1c2a70-5555-4000-8000-000000000005' };
const FIELD = { namespace: 'agriculture/fields', id: '3f1c2a70-6666-4000-8000-000000000006' };
/** An id whose read the fake area answers 503, as an area that is restarting does. */
const UNAVAILABLE = 'bbbbbbbb-0000-5000-8000-000000000000';

function fakeAreas() {
  const reads: string[] = [];
  const records: Record<string, unknown> = {
    [`platform /products/${PRODUCT.id}`]: { id: PRODUCT.id, name: 'air-temperature' },
    [`platform /frames/${FRAME.id}`]: { id: FRAME.id, validTime: '2026-12-04T20:00:00.000Z' },
    [`platform /forecasts/${RUN.id}`]: { id: RUN.id, initTime: '2026-12-04T12:00:00.000Z' },
    [`alerts /rules/${RULE.id}`]: { id: RULE.id, description: 'Frost on North 40', condition: { kind: 'frost', threshold: 0, hours: 48 } },
    [`alerts /rules/${UNNAMED_RULE.id}`]: {
      id: UNNAMED_RULE.id,
      description: '',
      condition: { kind: 'precipitation', threshold: 25, hours: 24 },
    },
    [`agriculture /fields/${FIELD.id}`]: { id: FIELD.id, description: 'North 40' },
  };
  const json = async (area: string, path: string) => {
    reads.push(`${area} ${path}`);
    if (path.includes(UNAVAILABLE)) throw Object.assign(new Error('platform: unavailable'), { status: 503 });
    const record = records[`${area} ${path}`];
    // as Api.json rejects: an error carrying the answer's status
    if (!record) throw Object.assign(new Error('platform: not found'), { status: 404 });
    return record;
  };
  return { reads, json, records };
}

describe('event messages with their slots filled', () => {
  it('fills each {} with the label of the tagged resource in the same place', () => {
    expect(fillSlots('Job {} built frame {} of product {}', ['a', 'b', 'c'])).toBe('Job a built frame b of product c');
    // Too few labels leave the rest of the slots as they are; braces with text inside are no slots.
    expect(fillSlots('Resource {} was {created}', [])).toBe('Resource {} was {created}');
  });

  it('names the product and the frame’s time; a resource it cannot name by a short id', async () => {
    const areas = fakeAreas();
    const labels = new ResourceLabels(areas.json);
    const message = await labels.message({ message: 'Job {} built frame {} of product {}', tagged: [JOB, FRAME, PRODUCT] });
    expect(message).toBe('Job 9b2e61d4 built frame 2026-12-04 20:00 UTC of product air-temperature');
    expect(await labels.message({ message: 'Job {} completed forecast {} of product {}', tagged: [JOB, RUN, PRODUCT] })).toBe(
      'Job 9b2e61d4 completed forecast 2026-12-04 12:00 UTC of product air-temperature',
    );
    // Each resource is read once, however many events name it.
    expect(areas.reads.filter((r) => r.includes(PRODUCT.id))).toHaveLength(1);
  });

  it('shows a resource whose read fails by its short id, and reads it again next time', async () => {
    const areas = fakeAreas();
    const labels = new ResourceLabels(areas.json);
    const unavailable = { namespace: 'platform/frames', id: UNAVAILABLE };
    expect(await labels.message({ message: 'frame {}', tagged: [unavailable] })).toBe('frame bbbbbbbb');
    await labels.message({ message: 'frame {}', tagged: [unavailable] });
    expect(areas.reads).toHaveLength(2);
  });

  it('reads a resource that is gone (404: a deleted field, an expired run) once, not at every poll', async () => {
    const areas = fakeAreas();
    const labels = new ResourceLabels(areas.json);
    const deleted = { namespace: 'agriculture/fields', id: 'aaaaaaaa-0000-4000-8000-000000000000' };
    for (let poll = 0; poll < 3; poll++) {
      expect(await labels.message({ message: 'Field {} was deleted', tagged: [deleted] })).toBe('Field aaaaaaaa was deleted');
    }
    expect(areas.reads).toHaveLength(1);
  });

  it('never reads a resource the feed says was deleted: its events name it by its short id', async () => {
    const areas = fakeAreas();
    const labels = new ResourceLabels(areas.json);
    const gone = { namespace: 'agriculture/fields', id: 'aaaaaaaa-0000-4000-8000-000000000000' };
    const created = { message: 'Field {} was created', origin: gone, occurrenceTime: '2026-12-04T20:00:00.000Z', tagged: [gone] };
    const deleted = { ...created, message: 'Field {} was deleted', occurrenceTime: '2026-12-04T20:05:00.000Z' };
    // newest first, as the feed gives them, at every poll of a page and of the next page loaded
    for (const page of [labels, new ResourceLabels(areas.json)]) {
      for (let poll = 0; poll < 2; poll++) {
        expect(await page.messages([deleted, created])).toEqual(['Field aaaaaaaa was deleted', 'Field aaaaaaaa was created']);
      }
    }
    // A rule deleted with the field it watched: the rule is gone, the field is read as any other.
    const rule = { namespace: 'alerts/rules', id: 'aaaaaaaa-1111-4000-8000-000000000001' };
    const ruleDeleted = {
      message: 'Rule {} was deleted (with {})',
      origin: rule,
      occurrenceTime: '2026-12-04T20:06:00.000Z',
      tagged: [rule, FIELD],
    };
    expect(await labels.messages([ruleDeleted])).toEqual(['Rule aaaaaaaa was deleted (with North 40)']);
    expect(areas.reads).toEqual([`agriculture /fields/${FIELD.id}`]);
  });

  it('keeps the name a resource was read by before the feed said it was deleted', async () => {
    const areas = fakeAreas();
    const labels = new ResourceLabels(areas.json);
    const created = { message: 'Field {} was created', origin: FIELD, occurrenceTime: '2026-12-04T20:00:00.000Z', tagged: [FIELD] };
    expect(await labels.messages([created])).toEqual(['Field North 40 was created']);
    delete areas.records[`agriculture /fields/${FIELD.id}`];
    const deleted = { ...created, message: 'Field {} was deleted', occurrenceTime: '2026-12-04T20:05:00.000Z' };
    expect(await labels.messages([deleted, created])).toEqual(['Field North 40 was deleted', 'Field North 40 was created']);
    expect(areas.reads).toHaveLength(1);
  });

  it('names an alert rule by its description or its condition, and the field by its description', async () => {
    const labels = new ResourceLabels(fakeAreas().json);
    const message = 'Rule {}: frost risk at {}: -1.8 °C forecast at 2026-12-05T05:00Z, below 0.0 °C';
    expect(await labels.message({ message, tagged: [RULE, FIELD] })).toBe(
      'Rule Frost on North 40: frost risk at North 40: -1.8 °C forecast at 2026-12-05T05:00Z, below 0.0 °C',
    );
    expect(await labels.message({ message: 'Rule {} at {}', tagged: [UNNAMED_RULE, FIELD] })).toBe(
      'Rule Precipitation: above 25 mm in 24 h at North 40',
    );
  });

  it('names a renamed field by its new name once the feed shows the rename, in every event naming it', async () => {
    const areas = fakeAreas();
    const labels = new ResourceLabels(areas.json);
    const frost = {
      message: 'Rule {}: frost risk at {}',
      origin: RULE,
      occurrenceTime: '2026-12-04T20:00:00.000Z',
      tagged: [RULE, FIELD],
    };
    expect(await labels.messages([frost])).toEqual(['Rule Frost on North 40: frost risk at North 40']);
    areas.records[`agriculture /fields/${FIELD.id}`] = { id: FIELD.id, description: 'North 41' };
    const renamed = { message: 'Field {} was updated', origin: FIELD, occurrenceTime: '2026-12-04T20:05:00.000Z', tagged: [FIELD] };
    const cleared = { ...frost, message: 'Rule {}: no more frost risk at {}', occurrenceTime: '2026-12-04T20:10:00.000Z' };
    // newest first, as the feed gives them: the later event comes before the rename
    expect(await labels.messages([cleared, renamed, frost])).toEqual([
      'Rule Frost on North 40: no more frost risk at North 41',
      'Field North 41 was updated',
      'Rule Frost on North 40: frost risk at North 41',
    ]);
    // The next polls show the same events: nothing is read again.
    const reads = areas.reads.length;
    await labels.messages([cleared, renamed, frost]);
    expect(areas.reads).toHaveLength(reads);
  });

  it('names a field the console renamed by its new name at once', async () => {
    const areas = fakeAreas();
    const labels = new ResourceLabels(areas.json);
    expect(await labels.message({ message: 'at {}', tagged: [FIELD] })).toBe('at North 40');
    areas.records[`agriculture /fields/${FIELD.id}`] = { id: FIELD.id, description: 'North 41' };
    labels.forget(FIELD);
    expect(await labels.message({ message: 'at {}', tagged: [FIELD] })).toBe('at North 41');
  });
});
