export { startConsole, type RunningConsole } from './server.js';
export { areasFromEnv, type ConsoleConfig } from './config.js';
