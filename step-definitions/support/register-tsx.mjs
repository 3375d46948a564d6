// Loads TypeScript step definitions on Node 20 (`--import tsx` does not work with cucumber there; TOOLCHAIN.md).
import { register } from "tsx/esm/api";

register();
