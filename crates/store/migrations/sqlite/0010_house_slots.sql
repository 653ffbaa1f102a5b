-- One house tournament per name and start: every node of a deployment may keep the
-- house's next occurrence open, and the first to write it wins (the others are
-- refused and find it open). Keep in step with the other flavour.
CREATE UNIQUE INDEX tournaments_house_slot ON tournaments (name, starts_at)
    WHERE created_by IS NULL;
