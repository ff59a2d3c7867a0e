-- Twin of migrations/sqlite/0003: the leaderboard summary player_days follows the score rows by trigger.
-- Days are UTC days since the epoch (finished_at is never before 1970, so integer division is the floor).

CREATE FUNCTION deal_scores_into_player_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO player_days (server_id, day, player_id, points, seeger, deals, declared, won)
    VALUES (NEW.server_id, NEW.finished_at / 86400, NEW.player_id, NEW.score, NEW.seeger,
            CASE WHEN NEW.role <> 'out' THEN 1 ELSE 0 END,
            CASE WHEN NEW.role = 'declarer' THEN 1 ELSE 0 END,
            CASE WHEN NEW.role = 'declarer' AND NEW.won = 1 THEN 1 ELSE 0 END)
    ON CONFLICT (server_id, day, player_id) DO UPDATE SET
        points = player_days.points + excluded.points,
        seeger = player_days.seeger + excluded.seeger,
        deals = player_days.deals + excluded.deals,
        declared = player_days.declared + excluded.declared,
        won = player_days.won + excluded.won;
    RETURN NULL;
END;
$$;

CREATE TRIGGER deal_scores_into_player_days AFTER INSERT ON deal_scores
FOR EACH ROW EXECUTE FUNCTION deal_scores_into_player_days();

CREATE FUNCTION deal_scores_out_of_player_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE player_days SET
        points = points - OLD.score,
        seeger = seeger - OLD.seeger,
        deals = deals - CASE WHEN OLD.role <> 'out' THEN 1 ELSE 0 END,
        declared = declared - CASE WHEN OLD.role = 'declarer' THEN 1 ELSE 0 END,
        won = won - CASE WHEN OLD.role = 'declarer' AND OLD.won = 1 THEN 1 ELSE 0 END
    WHERE server_id = OLD.server_id AND day = OLD.finished_at / 86400 AND player_id = OLD.player_id;
    RETURN NULL;
END;
$$;

CREATE TRIGGER deal_scores_out_of_player_days AFTER DELETE ON deal_scores
FOR EACH ROW EXECUTE FUNCTION deal_scores_out_of_player_days();
