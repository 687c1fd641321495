/**
 * The sql.js engine (SQLite compiled to WebAssembly), loaded once per process. Loading is
 * asynchronous, so it happens here at module evaluation (top-level await): every module
 * that imports `SQL` can then build or open databases synchronously.
 */
import initSqlJs from 'sql.js';

export const SQL: initSqlJs.SqlJsStatic = await initSqlJs();
