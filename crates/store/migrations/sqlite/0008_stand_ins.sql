-- Stand-ins: the stretches in which the referee's house bot played a seat whose player
-- had gone silent, from log step `from_step` until the player took the seat back at
-- `until_step` (NULL while the bot still holds it, and for good once the match ended:
-- that player left, and the seat counts as a loss). The log holds every action
-- whoever chose it; these rows say who did. Keep in step with the other flavour.
CREATE TABLE match_stand_ins (
    match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    -- the house bot that played (one of the ruleset's bots)
    bot        TEXT    NOT NULL,
    -- log entries before the bot's first decision
    from_step  INTEGER NOT NULL,
    until_step INTEGER,
    PRIMARY KEY (match_id, seat, from_step)
);
