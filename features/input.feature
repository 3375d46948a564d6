Feature: Input actions: write, submit and paste
  `write`, `submit` and `paste` (`send-keys`: send_keys.feature) deliver input to running PTY sessions; non-PTY
  stdin is closed at spawn. Byte checks use a PTY program that switches its terminal to raw mode, prints `ready`,
  then prints in hex every byte it reads until its input stays idle for one second.

  Rule: write sends data to stdin and can close it afterwards

    @INPUT-01 @doc @pty
    Scenario: written data reaches the program
      When exec is called with:
        """
        {"command": "read -r line; echo \"got $line\"", "pty": true, "background": true}
        """
      And process is called with '{"action": "write", "sessionId": "<id>", "data": "hello\n"}'
      Then the process action did not fail
      When the session finishes
      And the session is polled
      Then the text contains "got hello"

    @INPUT-01 @doc @pty
    Scenario: write with eof ends the program's input
      When exec is called with:
        """
        {"command": "cat >/dev/null; echo \"input ended\"", "pty": true, "background": true}
        """
      And process is called with '{"action": "write", "sessionId": "<id>", "data": "abc\n", "eof": true}'
      Then the process action did not fail
      When the session finishes
      And the session is polled
      Then the text contains "input ended"

  Rule: send-keys, submit and paste deliver input to PTY sessions

    @INPUT-02 @doc @pty
    Scenario: keys, a paste and a submitted empty line answer three prompts
      When exec is called with:
        """
        {"command": "read -r a; echo \"A=$a\"; read -r b; echo \"B=$b\"; read -r c; echo \"C=[$c]\"", "pty": true, "background": true}
        """
      And process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["h", "i", "Enter"]}'
      Then the process action did not fail
      When process is called with '{"action": "paste", "sessionId": "<id>", "text": "yo\n", "bracketed": false}'
      Then the process action did not fail
      When process is called with '{"action": "submit", "sessionId": "<id>"}'
      Then the process action did not fail
      When the session finishes
      And the session is polled
      Then the text contains "A=hi"
      And the text contains "B=yo"
      And the text contains "C=[]"

  Rule: Input actions on a non-PTY session fail because its stdin is closed

    @INPUT-03 @upstream
    Scenario Outline: <action> on a non-PTY session fails
      When exec runs "sleep 30" in the background
      And process is called with:
        """
        {"sessionId": "<id>", "action": "<action>"<arguments>}
        """
      Then the text is "Session <id> stdin is not writable."
      And the details contain:
        """
        {"status": "failed", "error": "Session <id> stdin is not writable."}
        """

      Examples:
        | action    | arguments        |
        | write     | , "data": "y\\n" |
        | send-keys | , "keys": ["a"]  |
        | submit    |                  |
        | paste     | , "text": "x"    |

    @INPUT-03 @upstream
    Scenario: list, poll and log report a non-PTY session's stdin as not writable
      When exec runs "sleep 30" in the background
      And the sessions are listed
      Then the listed session "id" has details containing '{"stdinWritable": false}'
      When the session is polled
      Then the detail "stdinWritable" is "false"
      When the session log is read
      Then the detail "stdinWritable" is "false"

  Rule: Input guards run in order: running session of the scope, foreground, finalizing, writable stdin

    @INPUT-04 @upstream
    Scenario Outline: <action> on an unknown id fails
      When process is called with:
        """
        {"sessionId": "gentle-reef", "action": "<action>"<arguments>}
        """
      Then the text is "No active session found for gentle-reef"
      And the status is "failed"

      Examples:
        | action    | arguments                        |
        | write     | , "data": "x"                    |
        | send-keys | , "keys": ["a"]                  |
        | send-keys | , "keys": []                     |
        | submit    |                                  |
        | paste     | , "text": "x"                    |
        | paste     | , "text": "", "bracketed": false |

    @INPUT-04 @upstream
    Scenario Outline: <action> on a finished session fails as not active, before the stdin check
      When exec runs "echo done" in the background
      And the session finishes
      And process is called with:
        """
        {"sessionId": "<id>", "action": "<action>"<arguments>}
        """
      Then the text is "No active session found for <id>"

      Examples:
        | action    | arguments       |
        | write     | , "data": "x"   |
        | send-keys | , "keys": ["a"] |
        | submit    |                 |
        | paste     | , "text": "x"   |

    @INPUT-04 @upstream @pty
    Scenario: write to a finished PTY session fails as not active
      When exec runs "true" in a pty in the background
      And the session finishes
      And process is called with '{"action": "write", "sessionId": "<id>", "data": "x"}'
      Then the text is "No active session found for <id>"

    @INPUT-04 @upstream @pty
    Scenario: write to a PTY session of another scope fails as not active
      When exec is called in scope "alpha" with '{"command": "sleep 30", "pty": true, "background": true}'
      And process is called in scope "beta" with '{"action": "write", "sessionId": "<id>", "data": "x"}'
      Then the text is "No active session found for <id>"

    @INPUT-04 @upstream
    Scenario: write to a hidden session fails as not active while its process still runs
      When exec is called with:
        """
        {"command": "trap '' TERM; echo armed; sleep 3", "background": true}
        """
      And the session's log shows "armed"
      And process is called with '{"action": "remove", "sessionId": "<id>"}'
      And process is called with '{"action": "write", "sessionId": "<id>", "data": "x"}'
      Then the text is "No active session found for <id>"
      And the session is live

    @INPUT-04 @upstream
    Scenario Outline: the stdin check comes before the checks of <action>
      When exec runs "sleep 30" in the background
      And process is called with:
        """
        {"sessionId": "<id>", "action": "<action>"<arguments>}
        """
      Then the text is "Session <id> stdin is not writable."

      Examples:
        | action    | arguments                        |
        | send-keys | , "keys": []                     |
        | send-keys | , "hex": ["zz"]                  |
        | paste     | , "text": "", "bracketed": false |

  Rule: stdinWritable is true for a PTY session until write with eof or completion

    @INPUT-05 @upstream @pty
    Scenario: a PTY session's stdin is writable until write with eof
      When exec runs "sleep 30" in a pty in the background
      And the session is polled
      Then the detail "stdinWritable" is "true"
      When the session log is read
      Then the detail "stdinWritable" is "true"
      When the sessions are listed
      Then the listed session "id" has details containing '{"stdinWritable": true}'
      When process is called with '{"action": "write", "sessionId": "<id>", "eof": true}'
      And the session is polled
      Then the detail "stdinWritable" is "false"
      When the session log is read
      Then the detail "stdinWritable" is "false"
      When the sessions are listed
      Then the listed session "id" has details containing '{"stdinWritable": false, "status": "running"}'

  Rule: A successful input action reports the running session

    @INPUT-06 @upstream @pty
    Scenario Outline: <action> returns status running with the session id and name
      When exec runs "sleep 30" in a pty in the background
      And process is called with:
        """
        {"sessionId": "<id>", "action": "<action>"<arguments>}
        """
      Then the details contain:
        """
        {"status": "running", "sessionId": "<id>", "name": "sleep 30"}
        """

      Examples:
        | action    | arguments       |
        | write     | , "data": "x"   |
        | send-keys | , "keys": ["a"] |
        | submit    |                 |
        | paste     | , "text": "x"   |

  Rule: An error of the stdin stream while writing rejects the call
    The error is provoked with the `faults` capability; on a healthy PTY every input action resolves.

    @INPUT-07 @upstream @pty
    Scenario: input actions on a healthy PTY session resolve instead of rejecting
      When exec runs "sleep 30" in a pty in the background
      And process is called with '{"action": "write", "sessionId": "<id>", "data": "x"}'
      Then the call is not rejected
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["a"]}'
      Then the call is not rejected
      When process is called with '{"action": "submit", "sessionId": "<id>"}'
      Then the call is not rejected
      When process is called with '{"action": "paste", "sessionId": "<id>", "text": "x"}'
      Then the call is not rejected
      When process is called with '{"action": "write", "sessionId": "<id>", "data": "y", "eof": true}'
      Then the call is not rejected
      And the text is "Wrote 1 bytes to session <id> (stdin closed)."

    @INPUT-07 @upstream @pty @faults
    Scenario Outline: <action> rejects with the error of the stdin stream
      Given every write to a session's input fails with "write EIO: the terminal went away"
      When exec runs "sleep 30" in a pty in the background
      And process is called with '{"action": "<action>", "sessionId": "<id>"<arguments>}'
      Then the call is rejected with a message containing "write EIO: the terminal went away"

      Examples:
        | action    | arguments       |
        | write     | , "data": "x"   |
        | send-keys | , "keys": ["a"] |
        | submit    |                 |
        | paste     | , "text": "x"   |

  Rule: write sends the UTF-8 bytes of data and reports their number

    Background:
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf 'ready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"

    @INPUT-08 @upstream @pty
    Scenario Outline: writing <data> sends <n> bytes
      When process is called with:
        """
        {"action": "write", "sessionId": "<id>", "data": "<data>"}
        """
      Then the text is "Wrote <n> bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "<bytes>\n\nProcess exited with code 0."

      Examples:
        | data   | n  | bytes                         |
        | bob\\n | 4  | 62 6f 62 0a                   |
        | 你好😀 | 10 | e4 bd a0 e5 a5 bd f0 9f 98 80 |
        | é\\r   | 3  | c3 a9 0d                      |

    @INPUT-08 @upstream @pty
    Scenario: write without data sends nothing
      When process is called with '{"action": "write", "sessionId": "<id>"}'
      Then the text is "Wrote 0 bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "(no new output)\n\nProcess exited with code 0."

  Rule: write with eof sends the data, then EOF, and closes stdin for good

    Background:
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf 'ready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"

    @INPUT-09 @upstream @pty
    Scenario: write with eof confirms the close and the terminal receives EOF after the data
      When process is called with '{"action": "write", "sessionId": "<id>", "data": "ab", "eof": true}'
      Then the text is "Wrote 2 bytes to session <id> (stdin closed)."
      When the session is polled
      Then the details contain:
        """
        {"status": "running", "stdinWritable": false, "waitingForInput": false}
        """
      When the session finishes
      And the session is polled
      Then the text is "61 62 04\n\nProcess exited with code 0."

    @INPUT-09 @upstream @pty
    Scenario: eof without data sends only EOF
      When process is called with '{"action": "write", "sessionId": "<id>", "eof": true}'
      Then the text is "Wrote 0 bytes to session <id> (stdin closed)."
      When the session finishes
      And the session is polled
      Then the text is "04\n\nProcess exited with code 0."

    @INPUT-09 @upstream @pty
    Scenario Outline: after eof, <action> fails and sends nothing
      When process is called with '{"action": "write", "sessionId": "<id>", "eof": true}'
      And process is called with:
        """
        {"sessionId": "<id>", "action": "<action>"<arguments>}
        """
      Then the text is "Session <id> stdin is not writable."
      And the status is "failed"
      When the session finishes
      And the session is polled
      Then the text is "04\n\nProcess exited with code 0."

      Examples:
        | action    | arguments                  |
        | write     | , "data": "x"              |
        | write     | , "data": "x", "eof": true |
        | send-keys | , "keys": ["a"]            |
        | submit    |                            |
        | paste     | , "text": "x"              |

  Rule: The documented write example needs a PTY session

    @INPUT-10 @doc @pty
    Scenario: a PTY program reads the written answer
      When exec is called with:
        """
        {"command": "read -r answer; echo \"got $answer\"", "pty": true, "background": true}
        """
      And process is called with '{"action": "write", "sessionId": "<id>", "data": "y\n"}'
      Then the process action did not fail
      When the session finishes
      And the session is polled
      Then the text contains "got y"

  Rule: submit sends Enter to submit the current line

    @INPUT-11 @doc @pty
    Scenario: submit completes a line typed before
      When exec is called with:
        """
        {"command": "read -r a; echo \"got [$a]\"", "pty": true, "background": true}
        """
      And process is called with '{"action": "write", "sessionId": "<id>", "data": "abc"}'
      And process is called with '{"action": "submit", "sessionId": "<id>"}'
      Then the process action did not fail
      When the session finishes
      And the session is polled
      Then the text contains "got [abc]"

    # In cooked mode the terminal turns CR into LF, so the scenario above passes with a submit that sends LF. In raw
    # mode the program reads the bytes as sent: one carriage return ("Enter/carriage return"), the line `0d` of od.
    # One call only: the reader stops after one second without input.
    @INPUT-11 @doc @pty
    Scenario: submit arrives as a carriage return, not a line feed
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf 'ready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session's log shows "ready"
      And the session is polled
      Then the text contains "ready"
      When process is called with '{"action": "submit", "sessionId": "<id>"}'
      Then the process action did not fail
      When the session finishes
      And the session is polled
      Then the text matches "(^|\n)0d\n"

  Rule: submit writes exactly one carriage return

    @INPUT-12 @upstream @pty
    Scenario: submit sends the single byte 0d
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf 'ready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"
      When process is called with '{"action": "submit", "sessionId": "<id>"}'
      Then the text is "Submitted session <id> (sent CR)."
      When the session finishes
      And the session is polled
      Then the text is "0d\n\nProcess exited with code 0."

  Rule: paste sends text literally, in bracketed-paste markers unless bracketed is false

    Background:
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf 'ready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session's log shows "ready"
      And the session is polled
      Then the text contains "ready"

    @INPUT-13 @doc @pty
    Scenario: the documented paste arrives
      When process is called with '{"action": "paste", "sessionId": "<id>", "text": "line1\nline2\n"}'
      Then the process action did not fail
      When the session finishes
      And the session is polled
      Then the text contains "6c 69 6e 65 31 0a 6c 69 6e 65 32 0a"

    # The documentation says "optionally wrapped in bracketed paste mode": the default and the option's name are
    # upstream's.
    @INPUT-13 @INPUT-14 @upstream @pty
    Scenario: the documented paste arrives wrapped in bracketed-paste markers
      When process is called with '{"action": "paste", "sessionId": "<id>", "text": "line1\nline2\n"}'
      Then the process action did not fail
      When the session finishes
      And the session is polled
      Then the text contains "1b 5b 32 30 30 7e 6c 69 6e 65 31 0a 6c 69 6e 65 32 0a 1b 5b 32 30 31 7e"

    @INPUT-13 @INPUT-14 @upstream @pty
    Scenario: a paste with bracketed false arrives as the text alone
      When process is called with '{"action": "paste", "sessionId": "<id>", "text": "line1\nline2\n", "bracketed": false}'
      Then the process action did not fail
      When the session finishes
      And the session is polled
      Then the text contains "6c 69 6e 65 31 0a 6c 69 6e 65 32 0a"
      And the text does not contain "1b"

  Rule: The paste payload and its confirmation count UTF-16 characters

    Background:
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf 'ready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"

    @INPUT-14 @upstream @pty
    Scenario Outline: pasting <text> with <arguments> reports <n> chars and sends <bytes>
      When process is called with:
        """
        {"action": "paste", "sessionId": "<id>", "text": "<text>"<arguments>}
        """
      Then the text is "Pasted <n> chars to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "<bytes>\n\nProcess exited with code 0."

      Examples:
        | text             | arguments            | n  | bytes                                                                   |
        | line1\\nline2\\n |                      | 12 | 1b 5b 32 30 30 7e 6c 69 6e 65 31 0a 6c 69 6e 65 32 0a 1b 5b 32 30 31 7e |
        | a                | , "bracketed": true  | 1  | 1b 5b 32 30 30 7e 61 1b 5b 32 30 31 7e                                  |
        | 😀é              | , "bracketed": false | 3  | f0 9f 98 80 c3 a9                                                       |
        | line1\\nline2\\n | , "bracketed": false | 12 | 6c 69 6e 65 31 0a 6c 69 6e 65 32 0a                                     |

  Rule: Only an empty unbracketed paste fails

    Background:
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf 'ready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"

    @INPUT-15 @upstream @pty
    Scenario: an empty paste with bracketed false fails and sends nothing
      When process is called with '{"action": "paste", "sessionId": "<id>", "text": "", "bracketed": false}'
      Then the text is "No paste text provided."
      And the details contain:
        """
        {"status": "failed", "error": "No paste text provided."}
        """
      When the session finishes
      And the session is polled
      Then the text is "(no new output)\n\nProcess exited with code 0."

    @INPUT-15 @upstream @pty
    Scenario Outline: an empty bracketed paste <arguments> sends only the markers
      When process is called with:
        """
        {"action": "paste", "sessionId": "<id>"<arguments>}
        """
      Then the text is "Pasted 0 chars to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "1b 5b 32 30 30 7e 1b 5b 32 30 31 7e\n\nProcess exited with code 0."

      Examples:
        | arguments                       |
        |                                 |
        | , "text": ""                    |
        | , "text": "", "bracketed": true |

  Rule: A cursor-position request in PTY output is removed and answered with ESC[1;1R

    @INPUT-16 @upstream @pty
    Scenario Outline: the request <request> is answered once
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf '<printed>'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session finishes
      And the session is polled
      Then the text is "<output>\n\nProcess exited with code 0."

      Examples:
        | request        | printed                      | output                                  |
        | ESC[6n         | A\\\\033[6nB\\\\n            | AB\n1b 5b 31 3b 31 52                   |
        | ESC[?6n        | A\\\\033[?6nB\\\\n           | AB\n1b 5b 31 3b 31 52                   |
        | ESC[6n ESC[?6n | A\\\\033[6n\\\\033[?6nB\\\\n | AB\n1b 5b 31 3b 31 52 1b 5b 31 3b 31 52 |

    @INPUT-16 @upstream @pty
    Scenario: requests in separate chunks are each answered
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf 'A\\033[6n'; sleep 0.3; printf 'B\\033[6n\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session finishes
      And the session is polled
      Then the text is "AB\n1b 5b 31 3b 31 52 1b 5b 31 3b 31 52\n\nProcess exited with code 0."

    @INPUT-16 @upstream @pty
    Scenario: output without a request gets no answer
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf 'A\\033[5nB\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session finishes
      And the session is polled
      Then the text is "AB\n\nProcess exited with code 0."
