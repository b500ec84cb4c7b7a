import type { Api } from '@fieldcast/kit';
import { ChillLocationResult, chillQuerySchema, DegreeDayLocationParams } from '@fieldcast/schemas';
import type { GridSource } from '@fieldcast/weather';
import { locationChill } from '../domain/chill.js';

export interface ChillRouteDeps {
  weather: GridSource;
  now: () => Date;
}

/** Winter chill at a location (beyond the spec; docs/decisions/0241-chill-endpoint.md). */
export function chillRoutes(api: Api, deps: ChillRouteDeps): Api {
  return api.op({
    method: 'get',
    path: '/chill/{latitude}/{longitude}',
    summary: 'Winter chill at a location',
    description:
      'Chill accumulated over the hours from start 00:00Z to end 23:00Z, from hourly air temperature interpolated bilinearly between grid points: chill hours (0-7.2 °C), Utah chill units (Richardson et al. 1974) or chill portions (Dynamic model, as chillR computes it). Query: model, start, end; unknown parameters are ignored. Start defaults to the season start before end: 1 September (northern hemisphere) or 1 March (southern).',
    tags: ['chill'],
    params: DegreeDayLocationParams,
    query: chillQuerySchema(deps.now),
    response: { status: 200, description: 'The chill at the location', schema: ChillLocationResult },
    handle: ({ params, query: q }) => locationChill(deps.weather, q, params.latitude, params.longitude),
  });
}
