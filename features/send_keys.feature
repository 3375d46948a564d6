Feature: send-keys
  `send-keys` sends literal text, raw hex bytes and key tokens to a PTY session, encoded like a terminal would.
  Byte-exact checks use a PTY program that announces normal cursor-key mode (`ESC[?1l`), switches its terminal to
  raw mode, prints `ready`, and then prints in hex every byte it reads until its input stays idle for one second.

  Rule: send-keys sends key tokens or bytes to a PTY session, e.g. Ctrl-C to interrupt it

    # In both scenarios `ready` comes from the interrupted program itself, so the C-c cannot come before that
    # program runs. With `printf 'ready\n'; sleep 90`, a C-c that came after the printf, while dash was between its
    # vfork and the exec of sleep, was lost: dash deferred it until sleep ended 90 s later (13 of 100 runs, loaded).
    @KEYS-01 @doc @pty
    Scenario: C-c interrupts the program running in the terminal, which would not end by itself
      When exec is called with:
        """
        {"command": "echo ready > ready.txt; tail -f ready.txt", "pty": true, "background": true}
        """
      And the session's log shows "ready"
      And the session is polled
      Then the text contains "ready"
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["C-c"]}'
      Then the process action did not fail
      When the session finishes
      And the session is polled
      Then the status is not "running"

    # Upstream 2026.9.6 prints node-pty's number: "Process exited with signal 2." (PTY-09, docs/UPSTREAM.md).
    @KEYS-01 @PTY-09 @reference @pty
    Scenario: the exit after C-c is reported as the signal SIGINT
      When exec is called with:
        """
        {"command": "echo ready > ready.txt; tail -f ready.txt", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["C-c"]}'
      And the session finishes
      And the session is polled
      Then the text contains "SIGINT"

    @KEYS-01 @doc @pty
    Scenario: C-c arrives as the byte 03
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf '\\033[?1lready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session's log shows "ready"
      And the session is polled
      Then the text contains "ready"
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["C-c"]}'
      Then the process action did not fail
      When the session finishes
      And the session is polled
      Then the text contains "03"

  Rule: The payload is the literal, then the hex bytes, then the keys

    Background:
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf '\\033[?1lready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"

    @KEYS-02 @upstream @pty
    Scenario: literal, hex and keys are sent in that order
      When process is called with:
        """
        {"action": "send-keys", "sessionId": "<id>", "keys": ["a", "b", "Enter"], "hex": ["0x41", "zz"], "literal": "L"}
        """
      Then the text is exactly:
        """
        Sent 5 bytes to session <id>.
        Warnings:
        - Invalid hex byte: zz
        """
      When the session finishes
      And the session is polled
      Then the text is "4c 41 61 62 0d\n\nProcess exited with code 0."

    @KEYS-02 @upstream @pty
    Scenario: a multi-byte literal is sent as UTF-8
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "literal": "é€"}'
      Then the text is "Sent 5 bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "c3 a9 e2 82 ac\n\nProcess exited with code 0."

  Rule: A hex entry is one byte of one or two hex digits, with an optional 0x prefix

    Background:
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf '\\033[?1lready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"

    @KEYS-03 @upstream @pty
    Scenario: valid entries are trimmed, lower-cased and stripped of 0x
      When process is called with:
        """
        {"action": "send-keys", "sessionId": "<id>", "hex": [" 0x1B ", "FF", "a", "0X41", "00", "7f", "0x80"]}
        """
      Then the text is "Sent 7 bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "1b ff 0a 41 00 7f 80\n\nProcess exited with code 0."

    @KEYS-03 @upstream @pty
    Scenario: invalid entries are skipped with one warning each, quoted as given
      When process is called with:
        """
        {"action": "send-keys", "sessionId": "<id>", "hex": ["zz", "0xfff", "g", "62", "0x", "1 2", "-1"]}
        """
      Then the text is exactly:
        """
        Sent 1 bytes to session <id>.
        Warnings:
        - Invalid hex byte: zz
        - Invalid hex byte: 0xfff
        - Invalid hex byte: g
        - Invalid hex byte: 0x
        - Invalid hex byte: 1 2
        - Invalid hex byte: -1
        """
      When the session finishes
      And the session is polled
      Then the text is "62\n\nProcess exited with code 0."

  Rule: The confirmation counts the bytes and lists the warnings

    Background:
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf '\\033[?1lready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"

    @KEYS-04 @upstream @pty
    Scenario: without warnings the confirmation is one sentence
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["F5", "x"]}'
      Then the text is "Sent 6 bytes to session <id>."
      And the details contain:
        """
        {"status": "running", "sessionId": "<id>"}
        """

    @KEYS-04 @upstream @pty
    Scenario: several warnings are listed one per line
      When process is called with:
        """
        {"action": "send-keys", "sessionId": "<id>", "keys": ["C-foo", "M-bar"]}
        """
      Then the text is exactly:
        """
        Sent 6 bytes to session <id>.
        Warnings:
        - Unknown key "foo" for modifiers; sending literal.
        - Unknown key "bar" for modifiers; sending literal.
        """
      When the session finishes
      And the session is polled
      Then the text is "66 6f 6f 62 61 72\n\nProcess exited with code 0."

  Rule: An empty payload fails and sends nothing

    Background:
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf '\\033[?1lready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"

    @KEYS-05 @upstream @pty
    Scenario Outline: send-keys with <arguments> fails
      When process is called with:
        """
        {"action": "send-keys", "sessionId": "<id>"<arguments>}
        """
      Then the text is "No key data provided."
      And the details contain:
        """
        {"status": "failed", "error": "No key data provided."}
        """
      When the session finishes
      And the session is polled
      Then the text is "(no new output)\n\nProcess exited with code 0."

      Examples:
        | arguments                                   |
        |                                             |
        | , "keys": []                                |
        | , "keys": ["", "   "]                       |
        | , "hex": ["zz"]                             |
        | , "literal": ""                             |
        | , "literal": "", "hex": ["g"], "keys": [""] |

  Rule: Unmodified cursor keys are refused while the cursor key mode is unknown

    Background:
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 20; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And 300 ms pass

    @KEYS-06 @upstream @pty
    Scenario Outline: the token <token> is refused before the program announced its cursor key mode
      When process is called with:
        """
        {"action": "send-keys", "sessionId": "<id>", "keys": ["a", "<token>"], "literal": "L"}
        """
      Then the text is "Session <id> cursor key mode is not known yet. Poll or log until startup output appears, then retry send-keys."
      And the status is "failed"
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "hex": ["62"]}'
      Then the text is "Sent 1 bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "62\n\nProcess exited with code 0."

      Examples:
        | token |
        | Up    |
        | down  |
        | LEFT  |
        | Right |
        | home  |
        | End   |

    @KEYS-06 @upstream @pty
    Scenario Outline: the token <token> is allowed while the mode is unknown
      When process is called with:
        """
        {"action": "send-keys", "sessionId": "<id>", "keys": ["<token>"]}
        """
      Then the text is "Sent <n> bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "<bytes>\n\nProcess exited with code 0."

      Examples:
        | token  | n | bytes             |
        | C-Up   | 6 | 1b 5b 31 3b 35 41 |
        | S-Home | 6 | 1b 5b 31 3b 32 7e |
        | M-End  | 6 | 1b 5b 34 3b 33 7e |
        | PageUp | 4 | 1b 5b 35 7e       |
        | Delete | 4 | 1b 5b 33 7e       |
        | upper  | 5 | 75 70 70 65 72    |
        | Enter  | 1 | 0d                |

  Rule: Key tokens are encoded step by step: trim, ^X, modifiers, shift-tab, cursor mode, named keys, characters, literals

    Background:
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf '\\033[?1lready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"

    @KEYS-07 @upstream @pty
    Scenario Outline: the token "<token>" is sent as <bytes>
      When process is called with:
        """
        {"action": "send-keys", "sessionId": "<id>", "keys": ["<token>"]}
        """
      Then the text is "Sent <n> bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "<bytes>\n\nProcess exited with code 0."

      Examples: trimming and ^X
        | token         | n | bytes |
        | \u0020a\u0020 | 1 | 61    |
        | ^a            | 1 | 01    |
        | ^@            | 1 | 00    |
        | ^^            | 1 | 1e    |
        | ^_            | 1 | 1f    |
        | ^1            | 2 | 5e 31 |
        | ^             | 1 | 5e    |

      Examples: modifier prefixes
        | token   | n | bytes    |
        | C-      | 2 | 43 2d    |
        | S-      | 2 | 53 2d    |
        | c-m-a   | 2 | 1b 01    |
        | C-S-a   | 1 | 01       |
        | M-A     | 2 | 1b 41    |
        | M-C-S-x | 2 | 1b 18    |
        | A-b     | 3 | 41 2d 62 |

      Examples: shift-tab and named keys with modifiers
        | token    | n | bytes       |
        | s-TAB    | 3 | 1b 5b 5a    |
        | M-Tab    | 2 | 1b 09       |
        | C-Tab    | 1 | 09          |
        | M-f1     | 4 | 1b 1b 4f 50 |
        | C-F1     | 3 | 1b 4f 50    |
        | S-Escape | 1 | 1b          |
        | M-Escape | 2 | 1b 1b       |
        | C-Space  | 1 | 20          |
        | M-BSpace | 2 | 1b 7f       |

      Examples: single characters
        | token | n | bytes |
        | S-1   | 1 | 31    |
        | C-?   | 1 | 7f    |
        | C-[   | 1 | 1b    |
        | C-é   | 2 | c3 a9 |
        | é     | 2 | c3 a9 |
        | S-é   | 2 | c3 a9 |
        | S-z   | 1 | 5a    |
        | C-z   | 1 | 1a    |

      Examples: other bases are sent literally
        | token | n | bytes             |
        | hello | 5 | 68 65 6c 6c 6f    |
        | x-y   | 3 | 78 2d 79          |
        | Ünïc  | 6 | c3 9c 6e c3 af 63 |

    @KEYS-07 @upstream @pty
    Scenario: empty tokens encode to nothing
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["", "a", "  ", "b"]}'
      Then the text is "Sent 2 bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "61 62\n\nProcess exited with code 0."

    @KEYS-07 @upstream @pty
    Scenario: a modified unknown base is sent literally with a warning
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["C-x-y"]}'
      Then the text is exactly:
        """
        Sent 3 bytes to session <id>.
        Warnings:
        - Unknown key "x-y" for modifiers; sending literal.
        """
      When the session finishes
      And the session is polled
      Then the text is "78 2d 79\n\nProcess exited with code 0."

  Rule: Named keys follow the key table

    Background:
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf '\\033[?1lready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"

    @KEYS-08 @upstream @pty
    Scenario Outline: the keys <keys> are sent as <bytes>
      When process is called with:
        """
        {"action": "send-keys", "sessionId": "<id>", "keys": [<keys>]}
        """
      Then the text is "Sent <n> bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "<bytes>\n\nProcess exited with code 0."

      Examples:
        | keys                              | n  | bytes                                                       |
        | "enter", "return"                 | 2  | 0d 0d                                                       |
        | "tab"                             | 1  | 09                                                          |
        | "escape", "esc"                   | 2  | 1b 1b                                                       |
        | "space"                           | 1  | 20                                                          |
        | "bspace", "backspace"             | 2  | 7f 7f                                                       |
        | "up", "down", "right", "left"     | 12 | 1b 5b 41 1b 5b 42 1b 5b 43 1b 5b 44                         |
        | "home", "end"                     | 8  | 1b 5b 31 7e 1b 5b 34 7e                                     |
        | "pageup", "pgup", "ppage"         | 12 | 1b 5b 35 7e 1b 5b 35 7e 1b 5b 35 7e                         |
        | "pagedown", "pgdn", "npage"       | 12 | 1b 5b 36 7e 1b 5b 36 7e 1b 5b 36 7e                         |
        | "insert", "ic"                    | 8  | 1b 5b 32 7e 1b 5b 32 7e                                     |
        | "delete", "del", "dc"             | 12 | 1b 5b 33 7e 1b 5b 33 7e 1b 5b 33 7e                         |
        | "btab"                            | 3  | 1b 5b 5a                                                    |
        | "f1", "f2", "f3", "f4"            | 12 | 1b 4f 50 1b 4f 51 1b 4f 52 1b 4f 53                         |
        | "f5", "f6", "f7", "f8"            | 20 | 1b 5b 31 35 7e 1b 5b 31 37 7e 1b 5b 31 38 7e 1b 5b 31 39 7e |
        | "f9", "f10", "f11", "f12"         | 20 | 1b 5b 32 30 7e 1b 5b 32 31 7e 1b 5b 32 33 7e 1b 5b 32 34 7e |
        | "kp/", "kp*", "kp-", "kp+"        | 12 | 1b 4f 6f 1b 4f 6a 1b 4f 6d 1b 4f 6b                         |
        | "kp7", "kp8", "kp9"               | 9  | 1b 4f 77 1b 4f 78 1b 4f 79                                  |
        | "kp4", "kp5", "kp6"               | 9  | 1b 4f 74 1b 4f 75 1b 4f 76                                  |
        | "kp1", "kp2", "kp3"               | 9  | 1b 4f 71 1b 4f 72 1b 4f 73                                  |
        | "kp0", "kp.", "kpenter"           | 9  | 1b 4f 70 1b 4f 6e 1b 4f 4d                                  |
        | "ENTER", "Tab", "PgUp", "KpEnter" | 9  | 0d 09 1b 5b 35 7e 1b 4f 4d                                  |

    @KEYS-08 @upstream @pty
    Scenario: in application cursor mode the cursor keys use SS3
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf '\\033[?1hready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["up", "down", "right", "left", "home", "end", "pageup"]}'
      Then the text is "Sent 22 bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "1b 4f 41 1b 4f 42 1b 4f 43 1b 4f 44 1b 4f 48 1b 4f 46 1b 5b 35 7e\n\nProcess exited with code 0."

  Rule: Modified arrows, home, end, page, insert and delete keys use the xterm form ESC[p;m final

    Background:
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf '\\033[?1lready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"

    @KEYS-09 @upstream @pty
    Scenario Outline: <token> is sent as ESC[<form>
      When process is called with:
        """
        {"action": "send-keys", "sessionId": "<id>", "keys": ["<token>"]}
        """
      Then the text is "Sent <n> bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "<bytes>\n\nProcess exited with code 0."

      Examples: the modifier number of every combination
        | token    | form | n | bytes             |
        | S-Up     | 1;2A | 6 | 1b 5b 31 3b 32 41 |
        | M-Up     | 1;3A | 6 | 1b 5b 31 3b 33 41 |
        | S-M-Up   | 1;4A | 6 | 1b 5b 31 3b 34 41 |
        | M-S-Up   | 1;4A | 6 | 1b 5b 31 3b 34 41 |
        | C-Up     | 1;5A | 6 | 1b 5b 31 3b 35 41 |
        | C-S-Up   | 1;6A | 6 | 1b 5b 31 3b 36 41 |
        | C-M-Up   | 1;7A | 6 | 1b 5b 31 3b 37 41 |
        | C-M-S-Up | 1;8A | 6 | 1b 5b 31 3b 38 41 |

      Examples: the parameter and final of every modifiable key
        | token      | form | n | bytes             |
        | C-Down     | 1;5B | 6 | 1b 5b 31 3b 35 42 |
        | C-Right    | 1;5C | 6 | 1b 5b 31 3b 35 43 |
        | C-Left     | 1;5D | 6 | 1b 5b 31 3b 35 44 |
        | S-Home     | 1;2~ | 6 | 1b 5b 31 3b 32 7e |
        | M-End      | 4;3~ | 6 | 1b 5b 34 3b 33 7e |
        | C-Insert   | 2;5~ | 6 | 1b 5b 32 3b 35 7e |
        | S-ic       | 2;2~ | 6 | 1b 5b 32 3b 32 7e |
        | C-M-Delete | 3;7~ | 6 | 1b 5b 33 3b 37 7e |
        | S-del      | 3;2~ | 6 | 1b 5b 33 3b 32 7e |
        | C-dc       | 3;5~ | 6 | 1b 5b 33 3b 35 7e |
        | C-S-PageUp | 5;6~ | 6 | 1b 5b 35 3b 36 7e |
        | M-pgup     | 5;3~ | 6 | 1b 5b 35 3b 33 7e |
        | S-ppage    | 5;2~ | 6 | 1b 5b 35 3b 32 7e |
        | C-PageDown | 6;5~ | 6 | 1b 5b 36 3b 35 7e |
        | C-M-S-pgdn | 6;8~ | 6 | 1b 5b 36 3b 38 7e |
        | M-npage    | 6;3~ | 6 | 1b 5b 36 3b 33 7e |

  Rule: Key encoding pins

    Background:
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf '\\033[?1lready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"

    @KEYS-10 @upstream @pty
    Scenario Outline: <token> is sent as <bytes>
      When process is called with:
        """
        {"action": "send-keys", "sessionId": "<id>", "keys": ["<token>"]}
        """
      Then the text is "Sent <n> bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "<bytes>\n\nProcess exited with code 0."

      Examples:
        | token    | n | bytes             |
        | Enter    | 1 | 0d                |
        | C-c      | 1 | 03                |
        | c-C      | 1 | 03                |
        | ^C       | 1 | 03                |
        | ^[       | 1 | 1b                |
        | ^?       | 1 | 7f                |
        | M-x      | 2 | 1b 78             |
        | C-M-a    | 2 | 1b 01             |
        | S-a      | 1 | 41                |
        | C-1      | 1 | 31                |
        | S-Tab    | 3 | 1b 5b 5a          |
        | BSpace   | 1 | 7f                |
        | KPEnter  | 3 | 1b 4f 4d          |
        | F5       | 5 | 1b 5b 31 35 7e    |
        | C-Up     | 6 | 1b 5b 31 3b 35 41 |
        | S-Up     | 6 | 1b 5b 31 3b 32 41 |
        | M-Up     | 6 | 1b 5b 31 3b 33 41 |
        | C-S-Up   | 6 | 1b 5b 31 3b 36 41 |
        | C-Home   | 6 | 1b 5b 31 3b 35 7e |
        | C-PageUp | 6 | 1b 5b 35 3b 35 7e |
        | C-Delete | 6 | 1b 5b 33 3b 35 7e |
        | M-Enter  | 2 | 1b 0d             |
        | C-Enter  | 1 | 0d                |
        | foo      | 3 | 66 6f 6f          |
        | x-y      | 3 | 78 2d 79          |

    @KEYS-10 @upstream @pty
    Scenario: C-foo is sent literally with a warning
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["C-foo"]}'
      Then the text is exactly:
        """
        Sent 3 bytes to session <id>.
        Warnings:
        - Unknown key "foo" for modifiers; sending literal.
        """
      When the session finishes
      And the session is polled
      Then the text is "66 6f 6f\n\nProcess exited with code 0."

  Rule: Combined pins of literal, hex and keys

    Background:
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf '\\033[?1lready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"

    @KEYS-11 @upstream @pty
    Scenario: literal hi, hex 0d 0x0a zz and Enter send five bytes with one warning
      When process is called with:
        """
        {"action": "send-keys", "sessionId": "<id>", "literal": "hi", "hex": ["0d", "0x0a", "zz"], "keys": ["Enter"]}
        """
      Then the text is exactly:
        """
        Sent 5 bytes to session <id>.
        Warnings:
        - Invalid hex byte: zz
        """
      When the session finishes
      And the session is polled
      Then the text is "68 69 0d 0a 0d\n\nProcess exited with code 0."

    @KEYS-11 @upstream @pty
    Scenario: the keys h, i and Enter send three bytes
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["h", "i", "Enter"]}'
      Then the text is "Sent 3 bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "68 69 0d\n\nProcess exited with code 0."

  Rule: The cursor key mode follows the last DECCKM sequence in the PTY output

    @KEYS-12 @upstream @pty
    Scenario Outline: after the program prints <printed>, Up is sent as <bytes>
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf '<printed>ready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["Up"]}'
      Then the text is "Sent 3 bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "<bytes>\n\nProcess exited with code 0."

      Examples:
        | printed                | bytes    |
        | \\\\033[?1h            | 1b 4f 41 |
        | \\\\033[?1l            | 1b 5b 41 |
        | \\\\033[?1l\\\\033[?1h | 1b 4f 41 |
        | \\\\033[?1h\\\\033[?1l | 1b 5b 41 |

    @KEYS-12 @upstream @pty
    Scenario: the mode persists across later output chunks
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf '\\033[?1h'; sleep 0.3; printf 'ready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session's log shows "ready"
      And the session is polled
      Then the text contains "ready"
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["Home"]}'
      Then the text is "Sent 3 bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "1b 4f 48\n\nProcess exited with code 0."

    @KEYS-12 @upstream @pty
    Scenario: the mode changes when the program switches back to normal mode
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf '\\033[?1hready\\n'; printf '\\033[?1lgot %s\\n' \"$(head -c 3 | od -An -v -tx1 | xargs)\"; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["Up"]}'
      And the session is polled with timeout 3000
      Then the text is "got 1b 4f 41\n\nProcess still running."
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["Up"]}'
      And the session finishes
      And the session is polled
      Then the text is "1b 5b 41\n\nProcess exited with code 0."

    @KEYS-12 @upstream @pty
    Scenario: output without a DECCKM sequence leaves the mode unknown
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf 'ready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["Up"]}'
      Then the text is "Session <id> cursor key mode is not known yet. Poll or log until startup output appears, then retry send-keys."
      When the session finishes
      And the session is polled
      Then the text is "(no new output)\n\nProcess exited with code 0."

    @KEYS-12 @upstream @pty
    Scenario: modified cursor keys keep the xterm form in application mode
      When exec is called with:
        """
        {"command": "stty raw -echo min 0 time 10; printf '\\033[?1hready\\n'; cat | od -An -v -tx1 | xargs", "pty": true, "background": true}
        """
      And the session is polled with timeout 3000
      Then the text contains "ready"
      When process is called with '{"action": "send-keys", "sessionId": "<id>", "keys": ["C-Up", "S-End"]}'
      Then the text is "Sent 12 bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text is "1b 5b 31 3b 35 41 1b 5b 34 3b 32 7e\n\nProcess exited with code 0."
