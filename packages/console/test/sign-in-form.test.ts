import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Until the page's script handles the form, a click would submit it natively: a GET with the
// application key in the URL, the browser's history and every log on the way (HTML, form
// submission: the GET method appends the form data to the action URL).
describe('the sign-in form', () => {
  const html = readFileSync(join(process.cwd(), 'packages/console/src/browser/index.html'), 'utf8');
  const main = readFileSync(join(process.cwd(), 'packages/console/src/browser/main.ts'), 'utf8');

  it('cannot be submitted before the script handles it: its button starts disabled, and the script enables it after', () => {
    expect(html).toMatch(/<button type="submit" disabled>Sign in<\/button>/);
    const handled = main.indexOf("form.addEventListener('submit'");
    const enabled = main.indexOf("removeAttribute('disabled')");
    expect(handled).toBeGreaterThan(0);
    expect(enabled).toBeGreaterThan(handled);
  });
});
