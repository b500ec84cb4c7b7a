import { styleLegend } from '../src/browser/style-legend.js';

// The weather layer's legend: a style's stops (docs/interface.md §4, colorizers) in the unit of the
// layer they colour (the platform's styleableLayers).
const LAYERS = [
  { name: 'precipitation_rate', unit: { label: 'mm/h' } },
  { name: 'precipitation_type', unit: null },
];

describe("the weather layer's legend", () => {
  it("gives a style's stops with the unit of the layer it colours", () => {
    const style = {
      layerName: 'air_temperature',
      colorizers: [
        {
          stops: [
            { value: -40, color: '#000' },
            { value: 45, color: '#f00' },
          ],
        },
      ],
    };
    expect(styleLegend(style, [{ name: 'air_temperature', unit: { label: '°C' } }])).toEqual([
      {
        title: '°C',
        entries: [
          { color: '#000', label: '-40' },
          { color: '#f00', label: '45' },
        ],
      },
    ]);
  });

  it('names each masked colorizer by what it colours, so rain and snow stops are told apart', () => {
    const stops = (...values: number[]) => values.map((value) => ({ value, color: `#${value}` }));
    const style = {
      layerName: 'precipitation_rate',
      colorizers: [
        { mask: { layerName: 'precipitation_type', attributes: ['rain'] }, stops: stops(0.1, 50) },
        { mask: { layerName: 'precipitation_type', attributes: ['freezing_rain', 'sleet'] }, stops: stops(0.1, 4) },
      ],
    };
    expect(styleLegend(style, LAYERS).map((g) => [g.title, g.entries.map((e) => e.label)])).toEqual([
      ['rain, mm/h', ['0.1', '50']],
      ['freezing rain or sleet, mm/h', ['0.1', '4']],
    ]);
  });

  it('leaves the unit out where the layer has none or is not listed', () => {
    const style = { layerName: 'precipitation_type', colorizers: [{ stops: [{ value: 1, color: '#fff' }] }] };
    expect(styleLegend(style, LAYERS)[0]!.title).toBe('');
    expect(styleLegend({ ...style, layerName: 'unknown' }, LAYERS)[0]!.title).toBe('');
  });
});
