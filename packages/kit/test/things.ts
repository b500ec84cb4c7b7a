import { z } from 'zod';
import { Api } from '../src/index.js';

/** A list long enough to be compressed (over the 1 KiB threshold), one too short to be, and a PNG, which is never compressed unasked. */
const LONG = Array.from({ length: 100 }, (_, i) => ({ name: `thing number ${i}` }));
const SHORT = [{ name: 'one' }];
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4000, 7)]);
export const list = { status: 200, description: 'things', schema: z.array(z.object({ name: z.string() })) };

/** The operations the kit's tests of content codings and of HEAD read (LONG, SHORT, PNG); each test file adds its own. */
export const thingsApi = (): Api =>
  new Api()
    .op({ method: 'get', path: '/things', summary: 'list', response: list, handle: () => LONG })
    .op({ method: 'get', path: '/few-things', summary: 'short list', response: list, handle: () => SHORT })
    .op({
      method: 'get',
      path: '/tiles/{z}.png',
      summary: 'a tile',
      params: z.object({ z: z.string() }),
      produces: ['image/png'],
      response: { status: 200, description: 'a tile', mediaType: 'image/png' },
      handle: ({ res }) => {
        res.type('png').send(PNG);
      },
    });
