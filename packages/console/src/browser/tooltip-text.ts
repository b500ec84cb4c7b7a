/// <reference lib="dom" />

/**
 * A tooltip's content as text. Leaflet sets a string content as HTML, and what the map's tooltips
 * say comes from people and areas: a field named "Smith & Sons <North>" is its name, not markup.
 */
export function tooltipText(text: string): HTMLElement {
  const span = document.createElement('span');
  span.textContent = text;
  return span;
}
