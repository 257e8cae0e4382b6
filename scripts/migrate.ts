import { migrate } from "../lib/db/migrate.ts";
import { loadDotEnv, parseEnv } from "../lib/env.ts";

loadDotEnv();
const env = parseEnv();
await migrate(env.DATABASE_URL, (line) => console.log(line));
console.log("database is up to date");
