/**
 * A small XML 1.0 writer (W3C XML 1.0 fifth edition): elements with attributes and children,
 * text escaped, and characters XML cannot carry (controls, lone surrogates, U+FFFE/U+FFFF,
 * section 2.2 "Char") replaced by U+FFFD, so any string yields a well-formed document.
 */
export interface XmlElement {
  name: string;
  attributes?: Record<string, string | number | boolean | undefined>;
  children?: readonly (XmlElement | string)[];
}

const NOT_XML_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text with nothing to escape or replace, the common case (numbers, times, names): written as it is. */
const PLAIN = /^[A-Za-z0-9 .,:;+\-_/#()%=]*$/;

export function escapeText(text: string): string {
  if (PLAIN.test(text)) return text;
  return text.replace(NOT_XML_CHAR, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values keep their tabs and line breaks as character references (section 3.3.3: a parser normalises literal ones to spaces). */
export function escapeAttribute(text: string): string {
  if (PLAIN.test(text)) return text;
  return escapeText(text).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

export function element(name: string, attributes?: XmlElement['attributes'], children?: XmlElement['children']): XmlElement {
  return { name, ...(attributes ? { attributes } : {}), ...(children ? { children } : {}) };
}

function write(node: XmlElement | string, out: string[], depth: number): void {
  if (typeof node === 'string') {
    out.push(escapeText(node));
    return;
  }
  const attrs = Object.entries(node.attributes ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeAttribute(String(v))}"`)
    .join('');
  const children = node.children ?? [];
  if (children.length === 0) {
    out.push(`<${node.name}${attrs}/>`);
    return;
  }
  const textOnly = children.every((c) => typeof c === 'string');
  out.push(`<${node.name}${attrs}>`);
  for (const child of children) {
    if (!textOnly) out.push(`\n${'  '.repeat(depth + 1)}`);
    write(child, out, depth + 1);
  }
  if (!textOnly) out.push(`\n${'  '.repeat(depth)}`);
  out.push(`</${node.name}>`);
}

/** A whole document: the XML declaration, then the root element. */
export function xmlDocument(root: XmlElement): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  write(root, out, 0);
  out.push('\n');
  return out.join('');
}
