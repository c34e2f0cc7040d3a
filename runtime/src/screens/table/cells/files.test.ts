import { describe, expect, it } from 'vitest';
import invoicesTable from '../../../../../screens/invoices-table.json';
import type { FilesCellDecl } from '../../../config/bundle';
import { downloadWithToken, filesOf, openWithToken, rowVars, WindowBlockedError } from './files';

const decl = invoicesTable.columns.find((c) => c.id === 'iloscZal')!.cell as unknown as FilesCellDecl;

/** A stand-in for a browser window: where it was sent, and whether it was closed. */
function fakeWindow() {
  return { closed: false, opener: {} as unknown, location: { href: 'about:blank' }, close() { this.closed = true; } };
}

describe('files cell', () => {
  it('offers the first N declared files for a value N: nothing for 0 or empty, the invoice for 1, both for 2', () => {
    expect(filesOf(decl, 0)).toEqual([]);
    expect(filesOf(decl, null)).toEqual([]);
    expect(filesOf(decl, 1).map((f) => f.path)).toEqual(['/invoice/f']);
    expect(filesOf(decl, 2).map((f) => f.path)).toEqual(['/invoice/f', '/invoice/a']);
    expect(filesOf(decl, 5)).toHaveLength(2);
  });

  it('counts a file name as one file when the column holds names (an attachment), and an empty one as none', () => {
    const named = { ...decl, count: 'present' as const };
    expect(filesOf(named, 'Protokół.pdf').map((f) => f.path)).toEqual(['/invoice/f']);
    expect(filesOf(named, '')).toEqual([]);
    expect(filesOf(named, null)).toEqual([]);
  });

  it('downloads a file that is not previewed in this window once its token has come, and says why when it has not', async () => {
    const followed: string[] = [];
    await downloadWithToken(async () => 'tok', (token) => `/api/attachment/download?id=4&token=${token}`, () => undefined, (url) => followed.push(url));
    expect(followed).toEqual(['/api/attachment/download?id=4&token=tok']);
    const errors: unknown[] = [];
    await downloadWithToken(async () => { throw new Error('404'); }, (t) => t, (e) => errors.push(e), (url) => followed.push(url));
    expect(followed).toHaveLength(1);
    expect(errors).toHaveLength(1);
  });

  it('lets texts name the row’s plain fields, never as i18next options', () => {
    expect(rowVars({ faktNrCaly: 'FV/1', count: 3, nested: { a: 1 }, ogBrutto: null })).toEqual({ faktNrCaly: 'FV/1', ogBrutto: null });
  });

  it('opens the window inside the click, before the token is asked for, then points it at the file', async () => {
    const opened: string[] = [];
    const win = fakeWindow();
    let tokenAskedWithWindowOpen = false;
    await openWithToken(
      async () => {
        tokenAskedWithWindowOpen = opened.length === 1;
        return 'T0K3N';
      },
      (token) => `/api/invoice/f?id=7&token=${token}`,
      (e) => { throw e; },
      (url) => { opened.push(url); return win; },
    );
    expect(tokenAskedWithWindowOpen).toBe(true);
    expect(opened).toEqual(['']);
    expect(win.opener).toBeNull();
    expect(win.location.href).toBe('/api/invoice/f?id=7&token=T0K3N');
    expect(win.closed).toBe(false);
  });

  it('closes the empty window and reports the error when the token is refused', async () => {
    const win = fakeWindow();
    const errors: unknown[] = [];
    const refused = new Error('Nie znaleziono');
    await openWithToken(async () => { throw refused; }, () => 'never', (e) => errors.push(e), () => win);
    expect(win.closed).toBe(true);
    expect(win.location.href).toBe('about:blank');
    expect(errors).toEqual([refused]);
  });

  it('leaves a window the user closed meanwhile closed', async () => {
    const win = fakeWindow();
    await openWithToken(async () => { win.closed = true; return 't'; }, (t) => `/f?token=${t}`, () => {}, () => win);
    expect(win.location.href).toBe('about:blank');
  });

  it('tries once more with the file’s address when the browser blocked the empty window, and says so if that is blocked too', async () => {
    const opened: string[] = [];
    const errors: unknown[] = [];
    await openWithToken(async () => 't', (t) => `/f?token=${t}`, (e) => errors.push(e), (url) => { opened.push(url); return null; });
    expect(opened).toEqual(['', '/f?token=t']);
    expect(errors[0]).toBeInstanceOf(WindowBlockedError);
  });
});
