// Node 24's addon headers make better-sqlite3 <= 12 abort when V8 collects a database or
// statement (RemoveEnvironmentCleanupHook, WiseLibs/better-sqlite3#1515); 13 (Node-API) fixes it
// but needs Node >= 22 and segfaults on 20. So the one name every package imports picks the
// build that works on the running Node.
const major = Number(process.versions.node.split(".")[0]);
module.exports = require(major >= 22 ? "better-sqlite3-napi" : "better-sqlite3-node20");
