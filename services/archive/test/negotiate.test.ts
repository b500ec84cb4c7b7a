import { negotiateFormat } from '../src/formats/negotiate.js';

const KML = 'application/vnd.google-earth.kml+xml';
const at = (accept: string | undefined, fixed?: 'json' | 'xml' | 'kml') => {
  const n = negotiateFormat(accept, 'fieldcast', fixed);
  return n && `${n.format} ${n.contentType}`;
};

describe('the archive’s formats by Accept (docs/interface.md §11; RFC 9110 section 12.5.1)', () => {
  it.each([
    [undefined, 'json application/json; charset=utf-8'],
    ['*/*', 'json application/json; charset=utf-8'],
    ['application/*', 'json application/json; charset=utf-8'],
    ['text/*', 'xml text/xml; charset=utf-8'],
    [`application/xml;q=0.5, ${KML}`, `kml ${KML}; charset=utf-8`],
    ['application/xml, application/json', 'xml application/xml; charset=utf-8'],
    // at one quality the type a more specific range names wins, then the one named first
    ['*/*, application/xml', 'xml application/xml; charset=utf-8'],
    [`application/*, ${KML}`, `kml ${KML}; charset=utf-8`],
    ['text/*, application/json', 'json application/json; charset=utf-8'],
    ['application/vnd.fieldcast+json;version=2', 'json application/json; charset=utf-8'],
    ['application/vnd.fieldcast+json;version=1', null],
    ['image/png', null],
  ])('%s: %s', (accept, expected) => {
    expect(at(accept)).toBe(expected);
  });

  it('a media type refused with q=0 is not chosen through a wider range that allows it', () => {
    // "*/* except JSON": the most specific range that matches a type gives its quality
    expect(at('application/json;q=0, */*')).toBe('xml application/xml; charset=utf-8');
    expect(at('application/*, application/json;q=0')).toBe('xml application/xml; charset=utf-8');
    expect(at('text/*, text/xml;q=0')).toBeNull();
    expect(at(`*/*;q=0.1, ${KML};q=0`)).toBe('json application/json; charset=utf-8');
    // with a suffix the format is fixed; its media type is the one the header does not refuse
    expect(at('application/xml;q=0, */*;q=0.5', 'xml')).toBe('xml text/xml; charset=utf-8');
  });
});
