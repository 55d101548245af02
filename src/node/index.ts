/**
 * Node-only helpers: everything here touches the file system, so the root
 * `langgoap` import (which must bundle for the browser) never loads it.
 */
export { loadDomainFile } from "./domain-file.js";
