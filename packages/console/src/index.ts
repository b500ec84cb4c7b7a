export { startConsole, type RunningConsole } from './server.js';
export { AreaUrlError, areasFromEnv, type ConsoleConfig } from './config.js';
