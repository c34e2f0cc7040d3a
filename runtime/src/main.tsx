// The entry: the stylesheets (in the page's head, so the served sign-in form is drawn styled before
// any JavaScript runs), the holder of presses made on that form (shell/first-paint.ts, through
// start-gate.ts), and the runtime itself, started when the page needs it (start-gate.ts).
// The icon font's stylesheet is not here: the login page shows no glyph of it (shell/icon-font.ts).
import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';
import { startWhenUsed } from './start-gate';

startWhenUsed(() => import('./mount'));
