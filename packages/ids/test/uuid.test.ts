import { FIELDCAST_NAMESPACE, fieldcastId, fieldcastIdBytes, isUuid, NAMESPACE_DNS, NAMESPACE_URL, uuidv5 } from '../src/index.js';

describe('uuidv5 (RFC 9562 section 5.5)', () => {
  it('matches reference values of other implementations', () => {
    // Python: uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org')
    expect(uuidv5('python.org', NAMESPACE_DNS)).toBe('886313e1-3b8a-5372-9b90-0c9aee199e5d');
    // RFC 9562 appendix A.4: UUIDv5 of "www.example.com" in the DNS namespace
    expect(uuidv5('www.example.com', NAMESPACE_DNS)).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('refuses a namespace that is not a UUID', () => {
    expect(() => uuidv5('x', 'not-a-uuid')).toThrow(TypeError);
  });

  it('derives Fieldcast ids from a fixed namespace and the natural key joined by colons', () => {
    expect(FIELDCAST_NAMESPACE).toBe(uuidv5('https://fieldcast.dev/ids', NAMESPACE_URL));
    expect(fieldcastId('product', 'air-temperature')).toBe(uuidv5('product:air-temperature', FIELDCAST_NAMESPACE));
    // one key is the name as given; its bytes are the id's
    expect(fieldcastId('frame:air-temperature:2020-01-01T00:00:00Z')).toBe(fieldcastId('frame', 'air-temperature', '2020-01-01T00:00:00Z'));
    expect(fieldcastIdBytes('a', 'b').toString('hex')).toBe(fieldcastId('a:b').replace(/-/g, ''));
  });
});

describe('the UUID pattern (RFC 9562 section 4)', () => {
  it('takes the 8-4-4-4-12 hex form in any case, and nothing else', () => {
    expect(isUuid('2ED6657D-e927-568b-95e1-2665a8aea6a2')).toBe(true);
    expect(isUuid('2ed6657de927568b95e12665a8aea6a2')).toBe(false);
    expect(isUuid(' 2ed6657d-e927-568b-95e1-2665a8aea6a2')).toBe(false);
    expect(isUuid('2ed6657d-e927-568b-95e1-2665a8aea6ag')).toBe(false);
  });
});
