// Each Jest worker of the integration suite's parallel part on a PostgreSQL database of its own
// (made empty by global-setup.mjs), so two workers never migrate or truncate the same schemas.
import { workerDatabaseUrl } from './worker-databases.mjs';

process.env.DATABASE_URL = workerDatabaseUrl(process.env.DATABASE_URL, process.env.JEST_WORKER_ID ?? '1');
