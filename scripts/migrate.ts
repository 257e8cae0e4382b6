import { migrate } from "../lib/db/migrate.ts";
import { parseEnv } from "../lib/env.ts";

const env = parseEnv();
await migrate(env.DATABASE_URL, (line) => console.log(line));
console.log("database is up to date");
