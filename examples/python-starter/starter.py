#!/usr/bin/env python3
"""A starter for an implementation of the exec and process tools behind the kit's stdio protocol.

Standard library only. It answers the protocol (conformance/PROTOCOL.md in the kit's package): the handshake
(`start`), the queries, `abort` and `dispose`, and it rejects every tool call with "not implemented". Run the kit
against it and every behaviour scenario fails cleanly, with no protocol error:

    npx exec-process-conformance --command "python3 $PWD/starter.py" --paths process_actions.feature

Then replace `call` (and the queries) with your engine, one rule at a time.
"""
import json
import os
import sys
import threading

write_lock = threading.Lock()
aborts = {}  # request id of an in-flight call -> threading.Event, registered before the next line is read


def send(message):
    line = json.dumps(message, ensure_ascii=False) + "\n"
    with write_lock:  # whole lines only: answers of concurrent requests never interleave
        sys.stdout.write(line)
        sys.stdout.flush()


class Engine:
    """Replace this with yours: settings from env and config, sessions, events, wakes."""

    def __init__(self, env, cwd, config):
        self.env, self.cwd, self.config = env, cwd, config
        self.disposed = False

    def call(self, tool, args, scope, abort):
        if abort.is_set():  # aborted before it started: start nothing (EXEC-40)
            return {"kind": "error", "message": "Tool execution was aborted", "name": "AbortError"}
        return {"kind": "error", "message": f"{tool} is not implemented yet", "name": "Error"}

    def events(self, scope, drain):
        return []

    def dispose(self):
        self.disposed = True  # end every process you started, and return once they are gone


engine = None


def handle(request):
    global engine
    method, params = request.get("method"), request.get("params") or {}
    if method == "start":
        env = params.get("env") or dict(os.environ)
        engine = Engine(env=env, cwd=params["cwd"], config=params.get("config") or {})
        return {"capabilities": []}  # add "pty", "executor", "bridge", "langchain" as you implement them
    if method == "call":
        return engine.call(params["tool"], params.get("args") or {}, params.get("scope", "main"), aborts[request["id"]])
    if method == "abort":
        event = aborts.get(params.get("callId"))
        if event:
            event.set()
        return {}
    if method in ("drainEvents", "peekEvents"):
        return {"events": engine.events(params.get("scope"), drain=(method == "drainEvents"))}
    if method == "wakes":
        return {"wakes": []}
    if method == "clearFinished":
        return {"count": 0}
    if method == "liveSessionIds":
        return {"ids": []}
    if method == "dispose":
        engine.dispose()
        return {}
    raise ValueError(f"{method} is not supported by this implementation")


def serve(request):
    try:
        send({"id": request["id"], "result": handle(request)})
    except Exception as error:  # an implementation failure, reported as a protocol error answer
        send({"id": request["id"], "error": {"message": f"{type(error).__name__}: {error}"}})
    finally:
        aborts.pop(request["id"], None)


def main():
    # Requests are read on the main thread and served on worker threads. Python delivers signals to the main
    # thread only: install signal handlers (the bridge helper's, KILL-17) here, before the loop, never in a worker.
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("method") == "call":
            aborts[request["id"]] = threading.Event()
        if request.get("method") in ("start", "abort"):
            serve(request)  # start must finish before anything else; abort must act at once
        else:
            threading.Thread(target=serve, args=(request,), daemon=True).start()
    if engine:
        engine.dispose()  # end of input: the scenario is over
    os._exit(0)  # do not wait for threads still serving requests


if __name__ == "__main__":
    main()
