import { createMigration } from "../lib/db/migrations/createMigration";
console.log(await createMigration(process.argv[2], { dialect: "sqlite" }));
