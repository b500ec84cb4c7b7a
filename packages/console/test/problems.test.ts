import { problemOf, problemText } from '../src/browser/problems.js';

// An area's error as the console shows it (docs/interface.md §1, Errors): the problem's message and
// its faults', each parameter named once.
describe('problem messages as the console shows them', () => {
  it('names a refused query parameter once, not in the message, the path and the fault again', () => {
    const body = {
      id: 'invalid_parameter',
      message: 'Invalid query parameter: cutoff',
      errors: [{ path: 'cutoff', message: 'cutoff vertical needs cap, the upper threshold it applies at' }],
    };
    expect(problemOf('agriculture', 400, body)).toEqual({
      message: 'agriculture: Invalid query parameter: cutoff vertical needs cap, the upper threshold it applies at',
      code: 'invalid_parameter',
      faults: body.errors,
    });
    expect(
      problemText('Invalid query parameters: cap, cutoff', [
        { path: 'cap', message: 'cap needs a method other than average: the average method has no upper threshold' },
        { path: 'cutoff', message: 'cutoff vertical needs method single-sine, single-triangle, double-sine, double-triangle' },
      ]),
    ).toBe(
      'Invalid query parameters: cap needs a method other than average: the average method has no upper threshold; ' +
        'cutoff vertical needs method single-sine, single-triangle, double-sine, double-triangle',
    );
  });

  it('puts the path before a fault whose message does not name it, and keeps a message that lists nothing', () => {
    expect(
      problemText('The geometry is not valid', [{ path: 'geometries.0.coordinates.0', message: 'ring 0 crosses itself at [1, 2]' }]),
    ).toBe('The geometry is not valid: geometries.0.coordinates.0: ring 0 crosses itself at [1, 2]');
    expect(problemText('Invalid query parameter: limit', [{ path: 'limit', message: 'Invalid input' }])).toBe(
      'Invalid query parameter: limit: Invalid input',
    );
    // a longer word is not the parameter's name
    expect(problemText('Invalid query parameter: cap', [{ path: 'cap', message: 'capped too low' }])).toBe(
      'Invalid query parameter: cap: capped too low',
    );
    // the same fault twice is said once
    const twice = { path: 'end', message: 'end must be a date from 2015-01-01' };
    expect(problemText('Invalid query parameter: end', [twice, twice])).toBe('Invalid query parameter: end must be a date from 2015-01-01');
  });

  it('reads the archive’s own error style and says the status in words when the body holds no problem', () => {
    expect(problemOf('archive', 400, { error: { message: 'Invalid token' } }).message).toBe('archive: Invalid token');
    expect(problemOf('tiles', 502, 'Bad Gateway')).toEqual({
      message: 'tiles: the area could not be reached through its gateway (HTTP 502)',
      code: 'error',
      faults: [],
    });
    expect(problemOf('platform', 404, { id: 'route_does_not_exist' }).message).toBe('platform: not found (HTTP 404)');
    // a status without words of its own still says it is an error
    expect(problemOf('tiles', 418, null).message).toBe('tiles: refused (HTTP 418)');
    expect(problemOf('tiles', 599, null).message).toBe('tiles: failed (HTTP 599)');
  });

  it('says when to try again after a refusal without a problem, from Retry-After in seconds or as a date', () => {
    // a proxy or gateway in front of an area may refuse with an empty body (RFC 6585 section 4)
    expect(problemOf('tiles', 429, '', '30').message).toBe('tiles: too many requests (HTTP 429); try again in 30 s');
    expect(problemOf('events', 503, null, 'Wed, 21 Oct 2026 07:28:00 GMT').message).toBe(
      'events: the area is not available now (HTTP 503); try again after Wed, 21 Oct 2026 07:28:00 GMT',
    );
    // a Retry-After that is neither is left out
    expect(problemOf('tiles', 429, null, 'soon').message).toBe('tiles: too many requests (HTTP 429)');
    // the area's own problem says it already: its message as it is
    const own = { id: 'too_many_requests', message: 'This account sent more than 100 requests at once; try again in 3 s' };
    expect(problemOf('agriculture', 429, own, '3').message).toBe(`agriculture: ${own.message}`);
  });
});
