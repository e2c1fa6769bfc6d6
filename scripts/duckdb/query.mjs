// Runs each SQL statement given on stdin (a JSON array of strings) in one
// in-memory DuckDB and prints a JSON array with each statement's rows.
// Used by export_test.go; install with `npm ci` (or `npm i`) in this folder.
import { DuckDBInstance } from '@duckdb/node-api';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const statements = JSON.parse(input);
const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
const out = [];
for (const sql of statements) {
  const reader = await conn.runAndReadAll(sql);
  out.push(reader.getRowObjectsJson());
}
process.stdout.write(JSON.stringify(out) + '\n');
