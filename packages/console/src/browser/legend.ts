/// <reference lib="dom" />

/** A legend: one swatch per entry, labelled. */
export function drawLegend(element: HTMLElement, entries: { color: string; label: string }[]): void {
  element.replaceChildren(
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
