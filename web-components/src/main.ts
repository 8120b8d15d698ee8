/** Entry of the web UI bundle: the global stylesheet and the app shell (which imports every view). */
import './styles.css';
import './app-shell/app-shell.js';
