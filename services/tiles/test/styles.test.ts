import request from 'supertest';
import { type TestAccount, useTestFleet } from '@fieldcast/runtime/testing';
import { createCatalog, defaultStyles } from '@fieldcast/weather';
import { tilesService } from '../src/definition.js';

const t = useTestFleet([tilesService]);
const app = () => t.fleet.app('tiles');
const catalog = createCatalog();
const precipitation = catalog.product('precipitation-rate')!;
const temperature = catalog.product('air-temperature')!;
const temperatureDefault = defaultStyles(temperature)[0]!;

const body = (over: Record<string, unknown> = {}) => ({
  name: 'Rain and snow',
  description: 'rain green, snow blue',
  layerName: 'precipitation_rate',
  colorizers: [
    {
      mask: { layerName: 'precipitation_type', attributes: ['rain', 'freezing rain'] },
      defaultColor: 'rgba(0, 0, 0, 0)',
      defaultMode: 'discrete',
      stops: [
        { value: 0.1, color: '#00ff00' },
        { value: 4, color: 'rgba(0, 128, 0, 0.5)' },
      ],
    },
    {
      mask: { layerName: 'precipitation_type', attributes: ['snow', 'freezing_rain'] },
      defaultColor: '#000000',
      defaultMode: 'linear',
      stops: [{ value: 0, color: '#0000ff' }],
    },
  ],
  ...over,
});

const create = (a: TestAccount, b: unknown = body(), product = 'precipitation-rate') =>
  request(app())
    .post(`/v2/products/${product}/styles`)
    .set('Authorization', a.auth)
    .send(b as object);

/** A style's members rebuilt in the order spec 2.3 lists them (Style, Colorizer, mask, stop). */
type Served = {
  colorizers: {
    mask?: { layerName: string; attributes: string[] };
    defaultColor: string;
    defaultMode: string;
    stops: { value: number; color: string }[];
  }[];
} & Record<string, unknown>;
const inSpecOrder = (s: Served) => ({
  id: s.id,
  name: s.name,
  description: s.description,
  layerName: s.layerName,
  colorizers: s.colorizers.map((c) => ({
    ...(c.mask ? { mask: { layerName: c.mask.layerName, attributes: c.mask.attributes } } : {}),
    defaultColor: c.defaultColor,
    defaultMode: c.defaultMode,
    stops: c.stops.map((x) => ({ value: x.value, color: x.color })),
  })),
  isDefault: s.isDefault,
  productId: s.productId,
});

describe('styles', () => {
  it('creates a style (201, isDefault false, productId) and stores mask attribute names as sent', async () => {
    const res = await create(t.alice);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Rain and snow',
      isDefault: false,
      productId: precipitation.id,
      layerName: 'precipitation_rate',
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.colorizers[0].mask.attributes).toEqual(['rain', 'freezing rain']);
    expect(res.body.colorizers[1].mask.attributes).toEqual(['snow', 'freezing_rain']);
    const read = await request(app()).get(`/v2/styles/${res.body.id}.json`).set('Authorization', t.alice.auth);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it('gives a style as the same bytes wherever it is read: POST, PUT, GET, DELETE and the list, in spec 2.3 order, compact', async () => {
    // members sent in another order than spec 2.3 writes them
    const scrambled = {
      colorizers: [
        {
          stops: [
            { color: '#00ff00', value: 0.1 },
            { color: 'rgba(0, 128, 0, 0.5)', value: 4 },
          ],
          defaultMode: 'discrete',
          defaultColor: 'rgba(0, 0, 0, 0)',
          mask: { attributes: ['rain'], layerName: 'precipitation_type' },
        },
      ],
      layerName: 'precipitation_rate',
      description: 'one order everywhere',
      name: 'Byte for byte',
    };
    const made = await create(t.alice, scrambled);
    expect(made.status).toBe(201);
    expect(made.text).toBe(JSON.stringify(inSpecOrder(made.body)));
    const read = (id: string) => request(app()).get(`/v2/styles/${id}.json`).set('Authorization', t.alice.auth);
    const list = () => request(app()).get('/v2/products/precipitation-rate/styles.json').set('Authorization', t.alice.auth);
    const defaults = await Promise.all(defaultStyles(precipitation).map(async (d) => (await read(d.id)).text));
    for (const text of defaults) expect(text).toBe(JSON.stringify(inSpecOrder(JSON.parse(text))));
    expect((await read(made.body.id)).text).toBe(made.text);
    expect((await list()).text).toBe(`[${[...defaults, made.text].join(',')}]`);
    // read twice: the second list may be a kept page
    expect((await list()).text).toBe(`[${[...defaults, made.text].join(',')}]`);
    const replaced = await request(app())
      .put(`/v2/styles/${made.body.id}.json`)
      .set('Authorization', t.alice.auth)
      .send({ ...scrambled, name: 'Byte for byte, again' });
    expect(replaced.status).toBe(200);
    expect(replaced.text).toBe(JSON.stringify(inSpecOrder(replaced.body)));
    expect((await read(made.body.id)).text).toBe(replaced.text);
    expect((await list()).text).toBe(`[${[...defaults, replaced.text].join(',')}]`);
    const removed = await request(app()).delete(`/v2/styles/${made.body.id}.json`).set('Authorization', t.alice.auth);
    expect(removed.text).toBe(replaced.text);
  });

  it('names the created style’s read in Location (RFC 9110 section 10.2.2), which reads it back', async () => {
    const made = await create(t.alice);
    expect([made.status, made.headers.location]).toEqual([201, `/v2/styles/${made.body.id}.json`]);
    const read = await request(app()).get(made.headers.location!).set('Authorization', t.alice.auth);
    expect([read.status, read.body.id]).toEqual([200, made.body.id]);
  });

  it('accepts the product by id as well as by name, and 404s an unknown product', async () => {
    expect((await create(t.alice, body(), precipitation.id)).status).toBe(201);
    const res = await create(t.alice, body({ name: 'other' }), 'no-such-product');
    expect(res.status).toBe(404);
    expect(res.body.id).toBe('product_does_not_exist');
  });

  it('matches a product’s name exactly and its id in any case, as the platform area does (docs/decisions/0407-product-names-matched-exactly.md)', async () => {
    const list = (ref: string) => request(app()).get(`/v2/products/${ref}/styles.json`).set('Authorization', t.alice.auth);
    expect((await list(temperature.id.toUpperCase())).body[0]).toEqual(temperatureDefault);
    const other = await list('Air-Temperature');
    expect([other.status, other.body.id]).toEqual([404, 'product_does_not_exist']);
  });

  it('lists the product’s default styles first, then the caller’s own for that product only, never another account’s', async () => {
    const mine = (await create(t.alice)).body;
    await create(t.bob, body({ name: 'Bob’s' }));
    await create(
      t.alice,
      { ...body({ name: 'warm', layerName: 'air_temperature' }), colorizers: [body().colorizers[1]!] },
      'air-temperature',
    ).then((r) => expect(r.status).toBe(422));
    const res = await request(app()).get('/v2/products/precipitation-rate/styles.json').set('Authorization', t.alice.auth);
    expect(res.status).toBe(200);
    const defaults = defaultStyles(precipitation);
    expect(res.body.map((s: { name: string }) => s.name)).toEqual([...defaults.map((s) => s.name), 'Rain and snow']);
    expect(res.body[0]).toMatchObject({ id: defaults[0]!.id, isDefault: true, productId: precipitation.id });
    expect(res.body[1]).toEqual(mine);
    const bobs = await request(app()).get(`/v2/products/${precipitation.id}/styles.json`).set('Authorization', t.bob.auth);
    expect(bobs.body.map((s: { name: string }) => s.name)).toEqual([...defaults.map((s) => s.name), 'Bob’s']);
  });

  it('pages the contributed styles with limit and after (Link rel="next")', async () => {
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) ids.push((await create(t.alice, body({ name }))).body.id);
    const first = await request(app()).get('/v2/products/precipitation-rate/styles.json?limit=2').set('Authorization', t.alice.auth);
    expect(first.body.filter((s: { isDefault: boolean }) => !s.isDefault).map((s: { id: string }) => s.id)).toEqual(ids.slice(0, 2));
    expect(first.headers.link).toBe(`</v2/products/precipitation-rate/styles.json?limit=2&after=${ids[1]}>; rel="next"`);
    const next = await request(app())
      .get(`/v2/products/precipitation-rate/styles.json?limit=2&after=${ids[1]}`)
      .set('Authorization', t.alice.auth);
    expect(next.body.map((s: { id: string }) => s.id)).toEqual([ids[2]]);
    expect(next.headers.link).toBeUndefined();
  });

  it('refuses as a cursor a style of another product of the account (400 unknown_cursor), as one it does not know', async () => {
    const older = (await create(t.alice)).body.id;
    const temperatureStyle = (
      await create(
        t.alice,
        body({
          name: 'warm',
          layerName: 'air_temperature',
          colorizers: [{ defaultColor: '#000000', defaultMode: 'linear', stops: [{ value: 0, color: '#ff0000' }] }],
        }),
        'air-temperature',
      )
    ).body.id;
    const newer = (await create(t.alice, body({ name: 'later' }))).body.id;
    expect([older, temperatureStyle, newer].every(Boolean)).toBe(true);
    const res = await request(app())
      .get(`/v2/products/precipitation-rate/styles.json?after=${temperatureStyle}`)
      .set('Authorization', t.alice.auth);
    expect([res.status, res.body.id, res.body.errors]).toEqual([
      400,
      'unknown_cursor',
      [{ path: 'after', message: 'must be the id of one of the account’s styles of this product' }],
    ]);
  });

  it('tells an after given twice so, though both are UUIDs', async () => {
    const { id } = (await create(t.alice)).body;
    const res = await request(app())
      .get(`/v2/products/precipitation-rate/styles.json?after=${id}&after=${id}`)
      .set('Authorization', t.alice.auth);
    expect([res.status, res.body.errors]).toEqual([
      400,
      [{ path: 'after', message: 'after must be given once, as the id of a contributed style (a UUID)' }],
    ]);
  });

  it('lists every change at once: a list read before a create, a rename and a delete is never served stale', async () => {
    const names = async () =>
      (await request(app()).get('/v2/products/precipitation-rate/styles.json').set('Authorization', t.alice.auth)).body
        .filter((s: { isDefault: boolean }) => !s.isDefault)
        .map((s: { name: string }) => s.name);
    expect(await names()).toEqual([]);
    const created = (await create(t.alice)).body;
    expect(await names()).toEqual(['Rain and snow']);
    await request(app())
      .put(`/v2/styles/${created.id}.json`)
      .set('Authorization', t.alice.auth)
      .send(body({ name: 'Renamed' }));
    expect(await names()).toEqual(['Renamed']);
    await request(app()).delete(`/v2/styles/${created.id}.json`).set('Authorization', t.alice.auth);
    expect(await names()).toEqual([]);
  });

  it('replaces a style whole (PUT) and removes it (DELETE returns it as it was)', async () => {
    const created = (await create(t.alice)).body;
    const put = await request(app())
      .put(`/v2/styles/${created.id}.json`)
      .set('Authorization', t.alice.auth)
      .send(body({ name: 'Renamed', description: 'new' }));
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: created.id, name: 'Renamed', description: 'new', productId: precipitation.id });
    const del = await request(app()).delete(`/v2/styles/${created.id}.json`).set('Authorization', t.alice.auth);
    expect(del.status).toBe(200);
    expect(del.body).toEqual(put.body);
    expect((await request(app()).get(`/v2/styles/${created.id}.json`).set('Authorization', t.alice.auth)).status).toBe(404);
  });

  it('takes back the style as read, edited (RFC 9110 §9.3.4), and refuses its service-set members changed', async () => {
    const created = (await create(t.alice)).body;
    const put = (b: unknown) =>
      request(app())
        .put(`/v2/styles/${created.id}.json`)
        .set('Authorization', t.alice.auth)
        .send(b as object);
    const read = (await request(app()).get(`/v2/styles/${created.id}.json`).set('Authorization', t.alice.auth)).body;
    const edited = await put({ ...read, description: 'edited as read' });
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({ ...read, description: 'edited as read' });
    for (const [member, value] of [
      ['id', '3f1c2a70-0000-4000-8000-000000000000'],
      ['isDefault', true],
      ['productId', temperature.id],
    ] as const) {
      const res = await put({ ...read, [member]: value });
      expect([res.status, res.body.id]).toEqual([422, 'invalid_style']);
      expect(res.body.errors).toEqual([{ path: member, message: expect.stringMatching(/set by the service/) }]);
    }
    expect((await request(app()).get(`/v2/styles/${created.id}.json`).set('Authorization', t.alice.auth)).body.description).toBe(
      'edited as read',
    );
  });

  it('hides another account’s style: 404 on read, update and delete, absent from lists; nothing changed', async () => {
    const created = (await create(t.alice)).body;
    for (const res of [
      await request(app()).get(`/v2/styles/${created.id}.json`).set('Authorization', t.bob.auth),
      await request(app())
        .put(`/v2/styles/${created.id}.json`)
        .set('Authorization', t.bob.auth)
        .send(body({ name: 'stolen' })),
      await request(app()).delete(`/v2/styles/${created.id}.json`).set('Authorization', t.bob.auth),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.id).toBe('style_does_not_exist');
    }
    const list = await request(app()).get('/v2/products/precipitation-rate/styles.json').set('Authorization', t.bob.auth);
    expect(list.body.some((s: { id: string }) => s.id === created.id)).toBe(false);
    const still = await request(app()).get(`/v2/styles/${created.id}.json`).set('Authorization', t.alice.auth);
    expect(still.body).toEqual(created);
  });

  it('lets every account read a default style, and refuses changing or removing one with 403 style_is_default', async () => {
    const read = await request(app()).get(`/v2/styles/${temperatureDefault.id}.json`).set('Authorization', t.bob.auth);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: temperatureDefault.id, isDefault: true, productId: temperature.id });
    const put = await request(app())
      .put(`/v2/styles/${temperatureDefault.id}.json`)
      .set('Authorization', t.bob.auth)
      .send(body({ name: 'mine now', layerName: 'air_temperature', colorizers: [body().colorizers[1]!].map(({ mask: _m, ...c }) => c) }));
    expect(put.status).toBe(403);
    expect(put.body.id).toBe('style_is_default');
    const del = await request(app()).delete(`/v2/styles/${temperatureDefault.id}.json`).set('Authorization', t.bob.auth);
    expect(del.status).toBe(403);
    expect(del.body.id).toBe('style_is_default');
  });

  describe('names are unique among all styles, case-insensitively', () => {
    it('refuses a name another account holds with 409, without saying whose', async () => {
      expect((await create(t.alice, body({ name: 'Radar' }))).status).toBe(201);
      const res = await create(t.bob, body({ name: 'rADAR' }));
      expect(res.status).toBe(409);
      expect(res.body.id).toBe('style_name_taken');
      expect(res.body.message).not.toContain(t.alice.id);
      expect(res.body.message).not.toContain('alice');
    });

    it('refuses a default style’s name, of any product', async () => {
      const res = await create(t.alice, body({ name: temperatureDefault.name.toUpperCase() }));
      expect(res.status).toBe(409);
      expect(res.body.id).toBe('style_name_taken');
    });

    it('applies the rule to a rename by PUT, and lets a style keep its own name in another case', async () => {
      const a = (await create(t.alice, body({ name: 'First' }))).body;
      await create(t.bob, body({ name: 'Second' }));
      const taken = await request(app())
        .put(`/v2/styles/${a.id}.json`)
        .set('Authorization', t.alice.auth)
        .send(body({ name: 'SECOND' }));
      expect(taken.status).toBe(409);
      expect(taken.body.id).toBe('style_name_taken');
      const same = await request(app())
        .put(`/v2/styles/${a.id}.json`)
        .set('Authorization', t.alice.auth)
        .send(body({ name: 'FIRST' }));
      expect(same.status).toBe(200);
      expect(same.body.name).toBe('FIRST');
    });

    it('compares names as they read: Unicode normalisation (NFKC) and runs of spaces do not make a second name (docs/decisions/0393-style-names-compared-as-they-read.md)', async () => {
      // [held, sent]: the same text in another Unicode form (precomposed or combining accent), in
      // full-width letters, with a ligature, with a no-break space or a run of spaces
      const pairs: [string, string][] = [
        ['Caf\u00e9 radar', 'CAFE\u0301 RADAR'],
        ['Wind gusts', '\uff37\uff49\uff4e\uff44 gusts'],
        ['fine rain', '\ufb01ne rain'],
        ['Snow depth', 'Snow\u00a0depth'],
        ['Hail size', 'Hail   size'],
      ];
      for (const [held, sent] of pairs) {
        const made = await create(t.alice, body({ name: held }));
        expect([held, made.status]).toEqual([held, 201]);
        const res = await create(t.bob, body({ name: sent }));
        expect([sent, res.status, res.body.id]).toEqual([sent, 409, 'style_name_taken']);
      }
      // nothing stored for bob; each name as sent for alice
      const bobs = await request(app()).get('/v2/products/precipitation-rate/styles.json').set('Authorization', t.bob.auth);
      expect(bobs.body.filter((s: { isDefault: boolean }) => !s.isDefault)).toEqual([]);
      // a style keeps its own name in another form
      const own = (await create(t.alice, body({ name: 'R\u00e9seau' }))).body;
      const same = await request(app())
        .put(`/v2/styles/${own.id}.json`)
        .set('Authorization', t.alice.auth)
        .send(body({ name: 'RE\u0301SEAU' }));
      expect([same.status, same.body.name]).toEqual([200, 'RE\u0301SEAU']);
    });
  });

  describe('validation: each fault 422 with its path, nothing stored', () => {
    const colorizer = body().colorizers[0]!;
    const cases: [string, unknown, string][] = [
      ['layer not of the product', body({ layerName: 'air_temperature' }), 'layerName'],
      ['no colorizer', body({ colorizers: [] }), 'colorizers'],
      ['mode not linear or discrete', body({ colorizers: [{ ...colorizer, defaultMode: 'smooth' }] }), 'colorizers.0.defaultMode'],
      ['no stop', body({ colorizers: [{ ...colorizer, stops: [] }] }), 'colorizers.0.stops'],
      [
        'stops not strictly ascending',
        body({
          colorizers: [
            {
              ...colorizer,
              stops: [
                { value: 1, color: '#000000' },
                { value: 1, color: '#ffffff' },
              ],
            },
          ],
        }),
        'colorizers.0.stops.1.value',
      ],
      [
        'a stop value that is no number',
        body({ colorizers: [{ ...colorizer, stops: [{ value: 'NaN', color: '#000000' }] }] }),
        'colorizers.0.stops.0.value',
      ],
      [
        'colour channel over 255',
        body({ colorizers: [{ ...colorizer, defaultColor: 'rgba(256, 0, 0, 1)' }] }),
        'colorizers.0.defaultColor',
      ],
      [
        'alpha over 1',
        body({ colorizers: [{ ...colorizer, stops: [{ value: 0, color: 'rgba(0, 0, 0, 1.5)' }] }] }),
        'colorizers.0.stops.0.color',
      ],
      ['a named colour', body({ colorizers: [{ ...colorizer, stops: [{ value: 0, color: 'red' }] }] }), 'colorizers.0.stops.0.color'],
      ['short hex', body({ colorizers: [{ ...colorizer, stops: [{ value: 0, color: '#fff' }] }] }), 'colorizers.0.stops.0.color'],
      [
        'mask layer not a mask layer',
        body({ colorizers: [{ ...colorizer, mask: { layerName: 'precipitation_rate', attributes: ['rain'] } }] }),
        'colorizers.0.mask.layerName',
      ],
      [
        'mask attribute unknown',
        body({ colorizers: [{ ...colorizer, mask: { layerName: 'precipitation_type', attributes: ['rain', 'hail'] } }] }),
        'colorizers.0.mask.attributes.1',
      ],
      ['empty name', body({ name: '  ' }), 'name'],
    ];
    it.each(cases)('%s', async (_what, b, path) => {
      const res = await create(t.alice, b);
      expect(res.status).toBe(422);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
      const list = await request(app()).get('/v2/products/precipitation-rate/styles.json').set('Authorization', t.alice.auth);
      expect(list.body.filter((s: { isDefault: boolean }) => !s.isDefault)).toEqual([]);
    });

    it('counts characters: a name of 100 and a description of 10,000 outside the BMP are stored, 101 refused (decision 0485)', async () => {
      const corn = '\u{1F33D}'; // one character, two UTF-16 code units
      const made = await create(t.alice, body({ name: corn.repeat(100), description: corn.repeat(10_000) }));
      expect([made.status, made.body.name, made.body.description]).toEqual([201, corn.repeat(100), corn.repeat(10_000)]);
      // a description fault is a malformed body, 400 (routes/styles.ts)
      for (const [over, status, path] of [
        [{ name: corn.repeat(101) }, 422, 'name'],
        [{ name: 'Corn', description: corn.repeat(10_001) }, 400, 'description'],
      ] as const) {
        const res = await create(t.alice, body(over));
        expect([res.status, res.body.errors.map((e: { path: string }) => e.path)]).toEqual([status, [path]]);
      }
    });

    it('names the accepted colour forms in the message', async () => {
      const res = await create(t.alice, body({ colorizers: [{ ...colorizer, defaultColor: 'hsl(0, 0%, 0%)' }] }));
      expect(res.body.errors[0].message).toContain('#rrggbb');
      expect(res.body.errors[0].message).toContain('rgba(r, g, b, a)');
    });

    it('validates a replacement alike and leaves the style unchanged', async () => {
      const created = (await create(t.alice)).body;
      const res = await request(app())
        .put(`/v2/styles/${created.id}.json`)
        .set('Authorization', t.alice.auth)
        .send(body({ layerName: 'nope' }));
      expect(res.status).toBe(422);
      expect((await request(app()).get(`/v2/styles/${created.id}.json`).set('Authorization', t.alice.auth)).body).toEqual(created);
    });
  });

  it('publishes created, updated and deleted events of the style through the outbox', async () => {
    const created = (await create(t.alice)).body;
    await request(app())
      .put(`/v2/styles/${created.id}.json`)
      .set('Authorization', t.alice.auth)
      .send(body({ name: 'v2' }));
    await request(app()).delete(`/v2/styles/${created.id}.json`).set('Authorization', t.alice.auth);
    const rows = await t.fleet.db.knex.withSchema('tiles').table('outbox').select('topic', 'event').orderBy('seq');
    const events = rows.map((r: { topic: string; event: unknown }) => ({
      topic: r.topic,
      event: typeof r.event === 'string' ? JSON.parse(r.event) : r.event,
    }));
    expect(events.map((e: { topic: string }) => e.topic)).toEqual([
      'fieldcast.tiles.styles',
      'fieldcast.tiles.styles',
      'fieldcast.tiles.styles',
    ]);
    expect(events.map((e: { event: { type: string } }) => e.event.type)).toEqual([
      'fieldcast.style.created',
      'fieldcast.style.updated',
      'fieldcast.style.deleted',
    ]);
    expect(events[0]!.event.data.account).toBe(t.alice.id);
    expect(events[0]!.event.data.resource).toEqual(created);
  });
});
