// Keeps one object of each per-session shape on the output path alive for the life of the process.
//
// V8 gives objects hidden classes (maps); the map of an object with fields added after it was made (every class
// with fields, every session object here) is reached only through a weak transition. Once no object of that map is
// alive, V8 drops it two full garbage collections later, and with it the optimized code that checks for it. A
// session's OutputBuffer, sanitizers and sink all end with the session, so two full collections between two
// foreground execs (the bench forces them; an idle process can get them from V8's memory reducer) threw away the
// output path's optimized code, and the next flood compiled it again on V8's worker threads: about 40 ms of CPU per
// 50 MB exec (bench/README.md, issue 36 item 4). One idle object of each shape keeps the maps, so the code stays valid.
const kept: object[] = [];

/** Keeps `example` alive for the life of the process and returns it. */
export function keepShape<T extends object>(example: T): T {
  kept.push(example);
  return example;
}
