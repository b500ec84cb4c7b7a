import { parseXml, XmlSyntaxError } from './xml-parse.js';

// The test parser must refuse what XML 1.0 refuses, or the format tests could not fail (control).
describe('the tests’ XML parser (XML 1.0 well-formedness)', () => {
  it.each([
    ['two roots', '<a/><b/>'],
    ['unclosed', '<a><b></a>'],
    ['bare ampersand', '<a>x & y</a>'],
    ['undeclared entity', '<a>&nbsp;</a>'],
    ['< in an attribute', '<a b="<"/>'],
    ['duplicate attribute', '<a b="1" b="2"/>'],
    ['control character', '<a>\u0001</a>'],
    ['reference to a control character', '<a>&#1;</a>'],
    ['text after the root', '<a/>x'],
    ['unquoted attribute', '<a b=1/>'],
  ])('refuses %s', (_name, text) => {
    expect(() => parseXml(text)).toThrow(XmlSyntaxError);
  });

  it('reads a document with references decoded', () => {
    const root = parseXml('<?xml version="1.0" encoding="UTF-8"?>\n<a x="1 &amp; &quot;2&quot;"><b>&lt;&#x263A;&#65;</b><!-- c --></a>\n');
    expect(root.attributes.x).toBe('1 & "2"');
    expect(root.children[0]!.text).toBe('<☺A');
  });
});
