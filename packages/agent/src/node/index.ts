/**
 * @pi/agent-core/node: the Node-only parts of @pi/agent-core (the only entry that imports
 * `node:fs`): sessions kept in JSONL files.
 */
export { createJsonlSessionStorage, type JsonlSessionStorageOptions, type SessionDurability } from "./jsonl-storage.js";
export { type OpenSessionFileOptions, openSessionFile } from "./open-session-file.js";
export { SESSION_FILE_VERSION, type SessionFileHeader } from "./jsonl-format.js";
export { listSessionFiles, readSessionFileInfo, type SessionFileInfo, type SessionFileListing } from "./session-file-info.js";
