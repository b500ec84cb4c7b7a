import { createCatalog, SyntheticSource } from '@fieldcast/weather';
import { layerGrid } from '../src/domain/layers.js';

describe('layers of the tiles area', () => {
  it('draws every styleable layer of every product with frames on the synthetic world, evapotranspiration included', () => {
    const source = new SyntheticSource();
    const layers = createCatalog()
      .products()
      .filter((p) => p.hasFrames)
      .flatMap((p) => p.styleableLayers.map((l) => ({ product: p, layer: l.name })));
    expect(layers.map((l) => l.layer)).toContain('evapotranspiration');
    const undrawable = layers.filter(({ product, layer }) => layerGrid(source, product, layer) === undefined);
    expect(undrawable.map(({ product, layer }) => `${product.name}/${layer}`)).toEqual([]);
  });
});
