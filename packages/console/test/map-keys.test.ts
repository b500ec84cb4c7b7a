import { mapKeyAction } from '../src/browser/map-keys.js';

// A point on the map can be picked, and a field drawn, without a pointer (WCAG 2.1.1): the arrow
// keys move the map under the mark at its centre, and these keys act there.
describe('the map by keyboard', () => {
  it('picks the point at the centre with Enter or Space', () => {
    expect(mapKeyAction('Enter', true, false)).toBe('pick');
    expect(mapKeyAction(' ', true, false)).toBe('pick');
    // the arrows and + - are Leaflet's: pan and zoom
    expect(mapKeyAction('ArrowUp', true, false)).toBeNull();
    expect(mapKeyAction('+', true, false)).toBeNull();
  });

  it('while drawing, adds a vertex at the centre with Space, closes with Enter, drops with Escape', () => {
    expect(mapKeyAction(' ', true, true)).toBe('add-vertex');
    expect(mapKeyAction('Enter', true, true)).toBe('finish');
    expect(mapKeyAction('Escape', true, true)).toBe('cancel');
    expect(mapKeyAction('ArrowLeft', true, true)).toBeNull();
  });

  it('leaves a key pressed on a handle on the map (a shape vertex) to that handle', () => {
    expect(mapKeyAction('Enter', false, false)).toBeNull();
    expect(mapKeyAction('Enter', false, true)).toBeNull();
  });
});
