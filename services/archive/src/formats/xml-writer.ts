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

const INDENT = Array.from({ length: 16 }, (_, d) => `\n${'  '.repeat(d)}`);

function write(node: XmlElement | string, out: string[], depth: number): void {
  if (typeof node === 'string') {
    out.push(escapeText(node));
    return;
  }
  let open = `<${node.name}`;
  const attributes = node.attributes;
  if (attributes) {
    for (const key in attributes) {
      const value = attributes[key];
      if (value !== undefined) open += ` ${key}="${escapeAttribute(String(value))}"`;
    }
  }
  const children = node.children ?? [];
  if (children.length === 0) {
    out.push(`${open}/>`);
    return;
  }
  out.push(`${open}>`);
  // An element holds text or elements, never both (the archive's documents have no mixed content).
  if (typeof children[0] === 'string') {
    for (const child of children) write(child, out, depth + 1);
  } else {
    const inner = INDENT[Math.min(depth + 1, 15)]!;
    for (const child of children) {
      out.push(inner);
      write(child, out, depth + 1);
    }
    out.push(INDENT[Math.min(depth, 15)]!);
  }
  out.push(`</${node.name}>`);
}

/** A whole document: the XML declaration, then the root element. */
export function xmlDocument(root: XmlElement): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  write(root, out, 0);
  out.push('\n');
  return out.join('');
}
