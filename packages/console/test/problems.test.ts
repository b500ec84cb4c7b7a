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

  it('reads the archive’s own error style and says the status when the body holds no problem', () => {
    expect(problemOf('archive', 400, { error: { message: 'Invalid token' } }).message).toBe('archive: Invalid token');
    expect(problemOf('tiles', 502, 'Bad Gateway')).toEqual({ message: 'tiles answered HTTP 502', code: 'error', faults: [] });
    expect(problemOf('platform', 404, { id: 'route_does_not_exist' }).message).toBe('platform: HTTP 404');
  });
});
