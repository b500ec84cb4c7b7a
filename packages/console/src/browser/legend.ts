/// <reference lib="dom" />

/** A legend: one swatch per entry, labelled, after its title if any (what it colours, its unit). */
export function drawLegend(element: HTMLElement, entries: { color: string; label: string }[], title = ''): void {
  const heading = title ? [Object.assign(document.createElement('b'), { textContent: title })] : [];
  element.replaceChildren(
    ...heading,
    ...entries.map(({ color, label }) => {
      const span = document.createElement('span');
      const swatch = document.createElement('i');
      swatch.style.background = color;
      span.append(swatch, label);
      return span;
    }),
  );
}

/** A sequential palette (yellow to red) for n bands, low to high. */
export function bandColors(n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const t = n === 1 ? 0.5 : i / (n - 1);
    return `hsl(${Math.round(55 - 55 * t)}, 90%, ${Math.round(70 - 25 * t)}%)`;
  });
}
