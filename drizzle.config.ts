import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // One schema file per feature; index.ts only re-exports them.
  schema: ['analytics', 'cards', 'experiments', 'home', 'identity', 'ledger', 'session', 'shared'].map((file) => `./server/db/schema/${file}.ts`),
  out: './server/db/migrations',
});
