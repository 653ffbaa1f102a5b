"""A small client for Arbiter's native protocol (docs/protocol.md), standard library only.

The protocol in three lines: the client sends JSON objects, one per line, each with a
"type"; the server answers requests ("register" -> "registered", "legal" -> "legal", ...)
or says "error", and pushes match messages ("view", "prompt", "events", "rejected",
"ejected", "outcome") as they happen.

A bot is one function:

    def decide(view, legal, prompt):
        return legal[0]

- view:   the ruleset's view of the game for your seat (the last "view" message's "view");
- legal:  actions your seat may send now, as the prompt lists them (the kit asks for
          "legal_in_prompt" with {"type": "options"}) or as {"type": "legal"} answers
          (for qgame and spacegoo a sample: other well-formed actions are accepted too);
- prompt: the "prompt" message plus what the kit knows: "ruleset", "seat", "players",
          "config", "rejected" (the refusal of your previous answer to this decision,
          or None), "time_left" (seconds until the deadline, bank included) and
          "budget" (seconds you may think without drawing on the time bank).

Use it like this:

    client = Client("127.0.0.1", 7000, "alice", "secret")
    client.connect()                      # register, or log in if the name is taken
    match = client.create_table("tae", seats=2, house_bot="random")  # or client.queue("tae")
    result = client.play(match, decide)   # answers every prompt until the outcome
    print(result.line())

A lost connection (or the server's "server_restarting") is resumed by itself: the kit
connects again with capped exponential backoff and full jitter (at least the server's
retry_after_ms; for at most Client.reconnect_for seconds), logs in with its session and
gets its seats back. Every "act" names the prompt's "step", so an answer to a decision
already closed is refused ("stale_answer") instead of landing on a later one.
"""

import json
import math
import random
import socket
import sys
import threading
import time
import traceback
import urllib.request

PROTOCOL = 1

REPLY_TIMEOUT = 90.0  # seconds a request waits for its reply (the store may stall ~60 s)
SILENCE = 30.0  # seconds of silence before a ping; as long again without an answer: lost
# Server errors during a reconnection that mean "try again later", not "give up".
RETRY_CODES = ("shutting_down", "store_unavailable", "node_unreachable",
               "too_many_connections", "internal")
# An answer the server refused because its decision is closed: not retried.
STALE_CODES = ("stale_answer", "bad_step")


def backoff_delay(attempt, rng=random.random, base=0.25, cap=5.0):
    """Seconds to wait before reconnection attempt `attempt` + 1 (0 = the first retry):
    capped exponential backoff with full jitter, random in [0, min(cap, base * 2**attempt)]."""
    return rng() * min(cap, base * 2 ** min(attempt, 30))


class ArbiterError(Exception):
    """The server answered a request with {"type": "error", "code": ..., "message": ...}."""

    def __init__(self, message):
        super().__init__("%s: %s" % (message.get("code"), message.get("message")))
        self.code = message.get("code")
        self.reply = message


class ConnectionLost(Exception):
    """The TCP connection closed or failed, or the server said nothing in time.
    `retry_after`: seconds to wait before connecting again (the server is restarting)."""

    def __init__(self, message, retry_after=0.0):
        super().__init__(message)
        self.retry_after = retry_after


class Connection:
    """One TCP connection: JSON objects in, JSON objects out, one per line."""

    def __init__(self, host, port, timeout=10.0):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.buffer = b""

    def send(self, message):
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")
        try:
            self.sock.sendall(data)
        except OSError as e:
            raise ConnectionLost(str(e))

    def recv(self, timeout=None):
        """The next message, or None if nothing came within `timeout` seconds."""
        end = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = None if end is None else max(0.0, end - time.monotonic())
            if left == 0.0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(1 << 16)
            except socket.timeout:
                return None
            except OSError as e:
                raise ConnectionLost(str(e))
            if not chunk:
                raise ConnectionLost("the server closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        line = line.strip()
        if not line:
            return self.recv(timeout)
        try:
            message = json.loads(line.decode("utf-8"))
        except ValueError as e:
            raise ConnectionLost("the server sent bad JSON: %s" % e)
        if not isinstance(message, dict):
            raise ConnectionLost("the server sent %r, not an object" % (message,))
        if message.get("type") == "server_restarting":
            # The server is stopping and closes every connection: come back later.
            self.close()
            wait = (message.get("retry_after_ms") or 0) / 1000.0
            raise ConnectionLost("the server is restarting (back in about %.1f s)" % wait, wait)
        return message

    def drain(self):
        """What the server sent before the connection failed and was not read yet (an
        outcome, say): (messages, seconds the server asked to wait, or 0)."""
        messages, retry_after = [], 0.0
        end = time.monotonic() + 1.0
        try:
            while time.monotonic() < end:
                message = self.recv(0.05)
                if message is None:
                    break
                messages.append(message)
        except ConnectionLost as e:
            retry_after = e.retry_after
        except OSError:
            pass
        return messages, retry_after

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Match:
    """What the kit knows about one match you play."""

    def __init__(self, match_id):
        self.id = match_id
        self.ruleset = None
        self.seat = None
        self.players = []
        self.config = None
        self.view = None
        self.step = 0
        self.pending = None  # the prompt we owe an answer to
        self.answered = None  # the prompt we answered last (re-armed when refused)
        self.rejected = None  # the last "rejected" message for the current decision
        self.tries = 0  # answers refused for the current decision
        self.ejected = {}  # seat -> reason
        self.outcome = None
        self.headline = None
        self.aborted = None
        self.done = False
        self.started = time.monotonic()
        self.decisions = 0
        self.tournament = None  # the tournament's id, for its games


class Result:
    """How a match ended for your seat."""

    def __init__(self, match):
        self.match = match
        self.outcome = match.outcome or {}
        self.seconds = time.monotonic() - match.started
        ejected = self.outcome.get("ejected") or []
        seat = match.seat
        self.ejected = match.ejected.get(seat) or (ejected[seat] if seat is not None and seat < len(ejected) else None)
        self.ok = match.outcome is not None and not self.ejected and not match.aborted

    def line(self):
        m = self.match
        if m.aborted:
            return "match %s %s: aborted: %s" % (m.id, m.ruleset, m.aborted)
        if m.outcome is None:
            return "match %s %s: no outcome (connection lost)" % (m.id, m.ruleset)
        ranks = self.outcome.get("ranks") or []
        rank = ranks[m.seat] if m.seat is not None and m.seat < len(ranks) else "?"
        text = "match %s %s seat %s: rank %s of %d, scores %s, %d decisions, %.1f s: %s" % (
            m.id, m.ruleset, m.seat, rank, len(ranks), self.outcome.get("scores"),
            m.decisions, self.seconds, m.headline or self.outcome.get("summary"))
        if self.ejected:
            text += " -- EJECTED: %s" % self.ejected
        return text


class Client:
    """A logged-in connection to an Arbiter server that plays matches."""

    def __init__(self, host="127.0.0.1", port=7000, name=None, password=None,
                 http=None, verbose=False, log=None, use_bank=False, reconnect_for=120.0):
        self.host, self.port = host, int(port)
        self.name, self.password = name, password
        self.http = http  # "host:port" of the HTTP API, for outcomes missed while away
        self.verbose = verbose
        self.log = log or (lambda text: print(text, file=sys.stderr, flush=True))
        self.conn = None
        self.session = None
        self.matches = {}
        self.generation = 0  # bumped on every reconnection
        self.drop_after = None  # testing: drop the connection after this many answers
        self.use_bank = use_bank  # let decide() run into the time bank before the fallback
        self.reconnect_for = reconnect_for  # seconds to keep trying to reconnect
        self.last_heard = time.monotonic()  # when the server last said anything
        self.pinged = None  # when we pinged a silent server, until it answers
        self.entered = set()  # tournaments joined: joined again after a reconnection
        self.tournaments_over = set()
        self.claimed = set()  # matches handed out by queue/create_table/tournament_game/play

    # ---- connection and login -------------------------------------------------------

    def connect(self):
        """Connect and log in: resume the session, else register, else log in."""
        if self.conn is not None:
            self.conn.close()
        self.conn = None
        self.conn = Connection(self.host, self.port)
        self.last_heard, self.pinged = time.monotonic(), None
        welcome = self.conn.recv(10.0)
        if not welcome or welcome.get("type") != "welcome":
            raise ConnectionLost("expected welcome within 10 s, got %r" % (welcome,))
        if welcome.get("protocol") != PROTOCOL:
            self.log("warning: server speaks protocol %s, this kit %s" % (welcome.get("protocol"), PROTOCOL))
        self._ask_legal_in_prompt()
        if self.session:
            try:
                return self._login({"type": "resume", "session": self.session})
            except ArbiterError as e:
                if e.code != "bad_session":
                    raise
        try:
            # "bot": a program plays this account (a tournament may take only bots, or
            # only people).
            return self._login({"type": "register", "name": self.name, "password": self.password,
                                "bot": True})
        except ArbiterError as e:
            if e.code != "name_taken":
                raise
        return self._login({"type": "login", "name": self.name, "password": self.password,
                            "bot": True})

    def _ask_legal_in_prompt(self):
        """Ask for the legal actions in every prompt on this connection (per connection:
        again after every reconnection; before logging in, so a resumed seat's prompt
        carries them too). An older server says "error": the kit then asks "legal"."""
        try:
            reply = self._raw_request({"type": "options", "legal_in_prompt": True}, "options")
            if not reply.get("legal_in_prompt"):
                self.log("the server does not put legal actions in prompts")
        except ArbiterError as e:
            self.log("options refused (an older server?): %s" % e)

    def _login(self, message):
        waited = 0.0
        while True:
            try:
                reply = self._raw_request(message, "registered", "logged_in")
            except ArbiterError as e:
                if e.code == "login_throttled" and waited < self.reconnect_for:
                    pause = e.reply.get("retry_after_ms", 1000) / 1000.0
                    self.log("login throttled: trying again in %.1f s" % pause)
                    time.sleep(pause)
                    waited += pause
                    continue
                raise
            self.session = reply.get("session", self.session)
            return reply

    def _raw_request(self, message, *reply_types):
        """Send on the current connection and wait (at most 30 s) for the reply (no
        reconnecting)."""
        self._send(message)
        end = time.monotonic() + 30.0
        while True:
            reply = self.conn.recv(max(0.0, end - time.monotonic()))
            if reply is None:
                raise ConnectionLost("no reply to %s within 30 s" % message["type"])
            kind = reply.get("type")
            if kind in reply_types:
                self._handle(reply)
                return reply
            if kind == "error":
                raise ArbiterError(reply)
            self._handle(reply)

    def reconnect(self, lost=None):
        """After a lost connection (`lost`, the ConnectionLost, says why): connect again
        and resume the session; the server re-attaches every running seat (joined, view
        and the pending prompt follow) and the kit enters its tournaments again (the
        server says already_entered, and this connection watches them again).

        Waits at least what the server asked ("server_restarting"), then tries with
        capped exponential backoff and full jitter (backoff_delay) while the server is
        down, for at most `reconnect_for` seconds; then raises ConnectionLost."""
        wait = getattr(lost, "retry_after", 0.0) or 0.0
        old, self.conn = self.conn, None
        if old is not None:
            messages, hint = old.drain()
            for message in messages:
                self._handle(message)  # an outcome that came before the end, say
            wait = max(wait, hint)
            old.close()
        started = time.monotonic()
        wait = min(wait, self.reconnect_for)
        if wait:
            self.log("the server is restarting: reconnecting in %.1f s" % wait)
        attempt, not_resumed_since = 0, None
        while True:
            time.sleep(wait)
            for m in self.matches.values():
                # A decision still owed is prompted again when the seat is re-attached.
                m.pending = m.answered = None
            try:
                reply = self.connect()
                self._watch_tournaments_again()
                resumed = set(reply.get("resumed") or [])
                missing = self._running_elsewhere(resumed)
                if not missing:
                    break
                # Running (says the HTTP API) but not given back: a server still
                # restoring its matches. Log in again shortly, for up to 30 s.
                not_resumed_since = not_resumed_since or time.monotonic()
                if time.monotonic() - not_resumed_since > 30.0:
                    self.log("matches %s still running but not resumed: giving them up" % missing)
                    break
                error = ConnectionLost("matches %s are running but were not resumed" % missing)
            except ArbiterError as e:
                if e.code not in RETRY_CODES:
                    raise
                error = e
            except (OSError, ConnectionLost) as e:
                error = e
            if self.conn is not None:
                self.conn.close()
                self.conn = None
            attempt += 1
            wait = max(backoff_delay(attempt - 1), getattr(error, "retry_after", 0.0))
            spent = time.monotonic() - started
            if spent + wait > self.reconnect_for:
                raise ConnectionLost("could not reconnect to %s:%d within %.0f s (%d attempts): %s"
                                     % (self.host, self.port, self.reconnect_for, attempt, error))
            self.log("reconnect attempt %d failed: %s; next in %.1f s" % (attempt, error, wait))
        self.generation += 1
        self.log("reconnected; resumed matches %s" % sorted(resumed))
        for m in self.matches.values():
            if not m.done and m.id not in resumed:
                self._outcome_over_http(m)
        return reply

    def _watch_tournaments_again(self):
        """A new connection hears nothing of a tournament until it joins again: entered
        before, the server answers already_entered and this connection watches it."""
        for tournament in sorted(self.entered - self.tournaments_over):
            try:
                self._raw_request({"type": "join_tournament", "tournament": tournament},
                                  "tournament_joined")
            except ArbiterError as e:
                if e.code == "already_entered":
                    continue
                if e.code in ("tournament_over", "no_such_tournament"):
                    self.tournaments_over.add(tournament)
                self.log("tournament %s: %s" % (tournament, e))

    def _running_elsewhere(self, resumed):
        """Matches of ours that the HTTP API says run, but that this login did not resume
        (only with `http`; a seat known to be ejected does not count)."""
        if not self.http:
            return []
        missing = []
        for m in self.matches.values():
            if m.done or m.id in resumed or (m.seat is not None and m.seat in m.ejected):
                continue
            summary = self._summary_over_http(m.id)
            if summary and summary.get("status") == "running":
                missing.append(m.id)
        return missing

    def _summary_over_http(self, match_id):
        try:
            url = "http://%s/api/matches/%d" % (self.http, match_id)
            with urllib.request.urlopen(url, timeout=10) as response:
                return json.load(response)
        except Exception as e:  # noqa: BLE001 - a teaching kit: report and go on
            self.log("could not read match %d over HTTP: %s" % (match_id, e))
            return None

    def _outcome_over_http(self, m):
        """A match that ended while we were away: its outcome from the HTTP API."""
        summary = self._summary_over_http(m.id) if self.http else None
        if summary and summary.get("outcome"):
            m.outcome = summary["outcome"]
            m.headline = "(outcome read over HTTP) " + str(m.outcome.get("summary"))
        elif summary and summary.get("status") == "aborted":
            m.aborted = "aborted (read over HTTP)"
        m.pending = None
        m.done = True

    # ---- sending and receiving ------------------------------------------------------

    def _send(self, message):
        if self.verbose:
            shown = dict(message)
            for secret in ("password", "session"):
                if secret in shown:
                    shown[secret] = "***"
            self.log("-> " + json.dumps(shown)[:300])
        if self.conn is None:
            raise ConnectionLost("not connected")
        self.conn.send(message)

    def send(self, message):
        """Send, reconnecting (and sending again) if the connection is gone."""
        try:
            self._send(message)
        except ConnectionLost as e:
            self.reconnect(e)
            self._send(message)

    def pump(self, timeout=None):
        """Read one message (reconnecting if needed), update the matches, return it;
        None when nothing came within `timeout` (at most 30 s) or after reconnecting.
        A server silent for 30 s is pinged; silent 30 s more, the connection is lost."""
        wait = SILENCE if timeout is None else max(0.0, min(timeout, SILENCE))
        try:
            if self.conn is None:
                raise ConnectionLost("not connected")
            message = self.conn.recv(wait)
            if message is None:
                self._check_alive()
        except ConnectionLost as e:
            self.log("connection lost: %s" % e)
            self.reconnect(e)
            return None
        if message is not None:
            self._handle(message)
        return message

    def _check_alive(self):
        now = time.monotonic()
        if self.pinged is not None:
            if now - self.pinged >= SILENCE:
                raise ConnectionLost("the server did not answer a ping within %.0f s" % SILENCE)
        elif now - self.last_heard >= SILENCE:
            self._send({"type": "ping"})
            self.pinged = now

    def request(self, message, *reply_types):
        """Send a request and return its reply; match messages that arrive meanwhile
        are handled. Raises ArbiterError on an "error" reply, ConnectionLost when no
        reply comes within 90 s."""
        while True:
            generation = self.generation
            self.send(message)
            asked = time.monotonic()
            while generation == self.generation:
                left = asked + REPLY_TIMEOUT - time.monotonic()
                if left <= 0:
                    raise ConnectionLost("no reply to %s within %.0f s" % (message["type"], REPLY_TIMEOUT))
                reply = self.pump(left)
                if reply is None:
                    continue
                kind = reply.get("type")
                if kind in reply_types:
                    return reply
                if kind == "error":
                    raise ArbiterError(reply)
            # Reconnected before the reply came: ask again.

    def _handle(self, message):
        """Keep each match's state up to date with what the server pushes."""
        if self.verbose:
            self.log("<- " + json.dumps(message)[:300])
        self.last_heard, self.pinged = time.monotonic(), None
        kind = message.get("type")
        if kind == "tournament_ended" or (kind == "tournament" and message.get("status") in ("finished", "cancelled")):
            self.tournaments_over.add(message.get("tournament"))
        match_id = message.get("match")
        if match_id is None:
            return
        if kind == "joined" and message.get("seat") is None:
            return  # a spectator's attachment: not ours to play
        m = self.matches.get(match_id)
        if m is None:
            m = self.matches[match_id] = Match(match_id)
        if kind in ("match_started", "joined"):
            m.ruleset = message.get("ruleset", m.ruleset)
            m.seat = message.get("seat", m.seat)
            m.players = message.get("players") or message.get("seats") or m.players
            m.config = message.get("config", m.config)
            m.tournament = message.get("tournament", m.tournament)
        elif kind == "view":
            m.view, m.step = message.get("view"), message.get("step", m.step)
        elif kind == "prompt":
            message["received_at"] = time.monotonic()
            m.pending, m.answered, m.rejected, m.tries = message, None, None, 0
        elif kind == "rejected" and message.get("code") in STALE_CODES:
            # An answer to a decision already closed (late, or sent around a lost
            # connection): not applied, and not to be retried. The decision owed now
            # has its own prompt (already here, or on its way).
            self.log("match %s: answer refused as %s, waiting for the current prompt: %s"
                     % (match_id, message.get("code"), message.get("message")))
        elif kind == "rejected":
            # Nothing changed: the same decision is owed, on the same clock; answer again.
            m.rejected = message
            m.tries += 1
            if m.answered is not None:
                m.pending, m.answered = m.answered, None
        elif kind == "ejected":
            m.ejected[message.get("seat")] = message.get("reason")
            if message.get("seat") == m.seat:
                m.pending = None
        elif kind == "outcome":
            m.outcome, m.headline = message.get("outcome"), message.get("headline")
            m.pending, m.done = None, True
        elif kind == "aborted":
            m.aborted, m.pending, m.done = message.get("reason") or "aborted", None, True

    # ---- lobby ----------------------------------------------------------------------

    def rulesets(self):
        return self.request({"type": "rulesets"}, "rulesets")["rulesets"]

    def _unclaimed_match(self):
        """A running match with our seat that nobody plays yet (a game that started
        while we were away, or a tournament's next game); claimed, or None."""
        for m in sorted(self.matches.values(), key=lambda m: m.id):
            if not m.done and m.seat is not None and m.id not in self.claimed:
                self.claimed.add(m.id)
                return m.id
        return None

    def _wait_match_started(self, resend=None, timeout=None, what="a match"):
        started = time.monotonic()
        while True:
            generation = self.generation
            message = self.pump(30.0)
            if message and message.get("type") == "match_started":
                self.claimed.add(message["match"])
                return message["match"]
            if message and message.get("type") == "error":
                raise ArbiterError(message)
            if message and message.get("type") in ("table_closed",):
                raise ArbiterError({"code": "table_closed", "message": message.get("reason")})
            if generation != self.generation:
                found = self._unclaimed_match()  # it started while we were away
                if found is not None:
                    return found
                if resend:
                    resend()  # the queue forgets a closed connection: join it again
            if timeout is not None and time.monotonic() - started > timeout:
                raise TimeoutError("no %s within %.0f s" % (what, timeout))

    def queue(self, ruleset, config=None, seats=None, timeout=600.0):
        """Wait in the matchmaking queue; returns the match id once paired (TimeoutError
        after `timeout` seconds, None: no limit)."""
        message = {"type": "queue", "ruleset": ruleset}
        if config is not None:
            message["config"] = config
        if seats is not None:
            message["seats"] = seats

        def join():
            try:
                self.request(message, "queued")
            except ArbiterError as e:
                if e.code != "already_queued":
                    raise

        join()
        try:
            return self._wait_match_started(resend=join, timeout=timeout,
                                            what="match in the %s queue" % ruleset)
        except TimeoutError:
            try:
                self._send({"type": "leave_queue"})
            except ConnectionLost:
                pass
            raise

    def create_table(self, ruleset, seats=2, house_bot="random", config=None,
                     deadline_ms=None, time_bank_ms=None):
        """Open a table, fill the other seats with a house bot and start it; returns
        the match id (you sit in seat 0)."""
        message = {"type": "create_table", "ruleset": ruleset, "seats": seats}
        for key, value in (("config", config), ("deadline_ms", deadline_ms),
                           ("time_bank_ms", time_bank_ms)):
            if value is not None:
                message[key] = value
        table = self.request(message, "table")["table"]
        generation = self.generation
        try:
            started = self.request({"type": "start_table", "table": table, "fill": house_bot},
                                   "match_started")
        except ArbiterError:
            # Lost around the start: the match may have started, and come back on login.
            found = self._unclaimed_match() if generation != self.generation else None
            if found is None:
                raise
            return found
        self.claimed.add(started["match"])
        return started["match"]

    def join_tournament(self, tournament_id):
        """Enter a tournament. Entered before (a bot back after a restart), the server
        says already_entered and this connection watches it again: fine too."""
        self.entered.add(tournament_id)
        try:
            self.request({"type": "join_tournament", "tournament": tournament_id}, "tournament_joined")
        except ArbiterError as e:
            if e.code == "tournament_over":
                self.tournaments_over.add(tournament_id)
            elif e.code != "already_entered":
                self.entered.discard(tournament_id)
                raise

    def tournament_game(self, tournament_id, timeout=None):
        """The next game the tournament pairs you in (a match id, for play), or None
        once the tournament is over. Joins it first; after a reconnection the kit joins
        again by itself. TimeoutError when no game comes within `timeout` seconds."""
        if tournament_id not in self.entered:
            self.join_tournament(tournament_id)
        started = time.monotonic()
        while True:
            found = self._unclaimed_match()
            if found is not None:
                return found
            if tournament_id in self.tournaments_over:
                return None
            if timeout is not None and time.monotonic() - started > timeout:
                raise TimeoutError("no game from tournament %s within %.0f s" % (tournament_id, timeout))
            self.pump(30.0)

    # ---- playing --------------------------------------------------------------------

    def legal(self, match_id):
        """The actions your seat may answer now (empty when it owes nothing)."""
        return self.request({"type": "legal", "match": match_id}, "legal")

    def act(self, match_id, action, step=None):
        """Answer a prompt; `step`, the prompt's, lets the server refuse an answer to a
        decision already closed (rejected, stale_answer) instead of applying it to a
        later one. Not sent again after a lost connection: the resumed seat is prompted
        again if the answer never arrived (a second answer could cost the seat)."""
        message = {"type": "act", "match": match_id, "action": action}
        if step is not None:
            message["step"] = step
        try:
            self._send(message)
        except ConnectionLost as e:
            self.log("connection lost while answering: %s" % e)
            self.reconnect(e)

    def play(self, match_id, decide, fallback=None):
        """Answer every prompt of the match with `decide` until it ends; a Result."""
        m = self.matches.setdefault(match_id, Match(match_id))
        self.claimed.add(match_id)
        while not m.done:
            if m.pending is None:
                self.pump(30.0)
                continue
            self._decide(m, decide, fallback)
        return Result(m)

    def _decide(self, m, decide, fallback):
        prompt = m.pending
        legal, legal_step = prompt.get("legal"), prompt.get("step")
        if not legal or m.tries:
            # The prompt has no list (an older server), or an answer was refused (the
            # list may be stale): ask the server.
            try:
                reply = self.legal(m.id)
            except ArbiterError as e:
                self.log("legal refused: %s" % e)
                if m.pending is prompt:
                    m.pending = None
                return
            if m.pending is not prompt:
                return  # while we asked, the decision changed (a new prompt, or the end)
            legal, legal_step = reply.get("actions") or [], reply.get("step")
            if not legal:
                m.pending = None  # nothing owed now; a prompt comes when something is
                return
        context = dict(prompt)
        context.update(ruleset=m.ruleset, seat=m.seat, players=m.players, config=m.config,
                       rejected=m.rejected, tries=m.tries, legal_step=legal_step)
        left = prompt["received_at"] + prompt.get("deadline_ms", 60000) / 1000.0 - time.monotonic()
        context["time_left"] = left
        context["budget"] = max(0.0, min(left, (prompt.get("deadline_ms", 0) - prompt.get("time_bank_ms", 0)) / 1000.0))
        if m.tries >= 5:
            action = legal[0]  # refused again and again: play the server's first choice
        else:
            # Think until shortly before the time per decision runs out (or the whole
            # deadline, bank included, with use_bank); then answer with the fallback.
            thinking = left if self.use_bank else context["budget"]
            limit = max(0.05, thinking - max(0.2, 0.1 * thinking))
            action = call_with_deadline(decide, (m.view, legal, context), limit, self.log)
            if action is None:
                action = (fallback or default_fallback)(m.view, legal, context)
        m.pending, m.answered = None, prompt
        m.decisions += 1
        self.act(m.id, action, step=prompt.get("step"))
        if self.drop_after is not None and m.decisions == self.drop_after:
            self.log("testing: dropping the connection after %d answers" % m.decisions)
            self.conn.sock.shutdown(socket.SHUT_RDWR)


def default_fallback(view, legal, prompt):
    """When the bot fails or runs out of time: a "pass" if the server lists one,
    else the server's first legal action."""
    for action in legal:
        if action in ("pass", "nop") or action == {"type": "end_turn"}:
            return action
    return legal[0]


def call_with_deadline(decide, args, seconds, log):
    """Run decide(*args) in a thread; None if it raises or takes longer than `seconds`
    (the thread is abandoned: Python cannot stop it)."""
    box = {}

    def run():
        try:
            box["action"] = decide(*args)
        except Exception:  # noqa: BLE001 - report the bot's bug, answer anyway
            box["error"] = traceback.format_exc()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        log("decide took longer than %.1f s: answering with the fallback" % seconds)
        return None
    if "error" in box:
        log("decide failed:\n" + box["error"])
        return None
    return box.get("action")


def distance(a, b):
    """Euclidean distance of two {"x", "y"} objects (handy for spacegoo)."""
    return math.hypot(a["x"] - b["x"], a["y"] - b["y"])
