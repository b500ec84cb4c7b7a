/**
 * A strict XML 1.0 well-formedness parser for the tests (W3C XML 1.0 fifth edition): one root,
 * matching tags, unique attributes, entity and character references that exist and name XML
 * characters, no `<` in attribute values, only XML characters. It returns the element tree with
 * references decoded, so tests read what a consumer would.
 */
export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const NAME = /^[A-Za-z_:][A-Za-z0-9._:-]*/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const XML_CHAR = /^[\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

export class XmlSyntaxError extends Error {}

function decode(raw: string, where: number): string {
  return raw.replace(/&([^;]*);|&/g, (m, ref: string | undefined) => {
    if (ref === undefined) throw new XmlSyntaxError(`bare & at ${where}`);
    if (ref.startsWith('#')) {
      const code = ref.startsWith('#x') ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      const ch = Number.isInteger(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
      if (!/^#(x[0-9a-fA-F]+|[0-9]+)$/.test(ref) || !ch || !XML_CHAR.test(ch))
        throw new XmlSyntaxError(`bad character reference ${m} at ${where}`);
      return ch;
    }
    const entity = ENTITIES[ref];
    if (entity === undefined) throw new XmlSyntaxError(`undeclared entity ${m} at ${where}`);
    return entity;
  });
}

export function parseXml(text: string): XmlNode {
  if (!XML_CHAR.test(text)) throw new XmlSyntaxError('a character XML does not allow');
  let i = 0;
  const fail = (msg: string): never => {
    throw new XmlSyntaxError(`${msg} at ${i}: ${JSON.stringify(text.slice(i, i + 40))}`);
  };
  const skipMisc = () => {
    for (;;) {
      const ws = /^\s*/.exec(text.slice(i))![0];
      i += ws.length;
      if (text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i + 4);
        if (end < 0 || text.slice(i + 4, end).includes('--')) fail('bad comment');
        i = end + 3;
      } else if (text.startsWith('<?', i) && !text.startsWith('<?xml ', i)) {
        const end = text.indexOf('?>', i);
        if (end < 0) fail('unterminated processing instruction');
        i = end + 2;
      } else return;
    }
  };
  if (text.startsWith('<?xml ')) {
    const end = text.indexOf('?>');
    if (
      end < 0 ||
      !/^<\?xml version="1\.[0-9]"( encoding="[A-Za-z][A-Za-z0-9._-]*")?( standalone="(yes|no)")?\s*\?>$/.test(text.slice(0, end + 2))
    )
      fail('bad XML declaration');
    i = end + 2;
  }
  skipMisc();
  const element = (): XmlNode => {
    if (text[i] !== '<') fail('expected an element');
    i += 1;
    const name = NAME.exec(text.slice(i))?.[0] ?? fail('expected a name');
    i += name.length;
    const node: XmlNode = { name, attributes: {}, children: [], text: '' };
    for (;;) {
      const ws = /^\s*/.exec(text.slice(i))![0];
      i += ws.length;
      if (text.startsWith('/>', i)) {
        i += 2;
        return node;
      }
      if (text[i] === '>') {
        i += 1;
        break;
      }
      if (ws.length === 0) fail('expected whitespace before an attribute');
      const attr = NAME.exec(text.slice(i))?.[0] ?? fail('expected an attribute name');
      i += attr.length;
      const m = /^\s*=\s*("([^"]*)"|'([^']*)')/.exec(text.slice(i)) ?? fail('expected ="value"');
      const raw = m[2] ?? m[3] ?? '';
      if (raw.includes('<')) fail('< in an attribute value');
      if (Object.hasOwn(node.attributes, attr)) fail(`duplicate attribute ${attr}`);
      node.attributes[attr] = decode(raw, i).replace(/[\t\n\r]/g, ' ');
      i += m[0].length;
    }
    for (;;) {
      if (i >= text.length) fail(`unclosed <${name}>`);
      if (text.startsWith('</', i)) {
        i += 2;
        const close = NAME.exec(text.slice(i))?.[0];
        if (close !== name) fail(`</${close}> closes <${name}>`);
        i += name.length;
        const m = /^\s*>/.exec(text.slice(i)) ?? fail('expected >');
        i += m[0].length;
        return node;
      }
      if (text.startsWith('<![CDATA[', i)) {
        const end = text.indexOf(']]>', i);
        if (end < 0) fail('unterminated CDATA');
        node.text += text.slice(i + 9, end);
        i = end + 3;
      } else if (text.startsWith('<!--', i) || text.startsWith('<?', i)) skipMisc();
      else if (text[i] === '<') node.children.push(element());
      else {
        const end = text.indexOf('<', i);
        const raw = text.slice(i, end < 0 ? text.length : end);
        if (raw.includes(']]>')) fail(']]> in text');
        node.text += decode(raw, i);
        i += raw.length;
      }
    }
  };
  const root = element();
  skipMisc();
  if (i !== text.length) fail('content after the root element');
  return root;
}

/** Every descendant element named `name`, depth first. */
export function findAll(node: XmlNode, name: string): XmlNode[] {
  const out: XmlNode[] = [];
  for (const c of node.children) {
    if (c.name === name) out.push(c);
    out.push(...findAll(c, name));
  }
  return out;
}
