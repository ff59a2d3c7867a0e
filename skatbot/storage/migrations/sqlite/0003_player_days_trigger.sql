-- The leaderboard summary follows the score rows by itself: whatever writes or removes deal_scores rows
-- keeps player_days in step (and storing a deal costs one statement less). Days are UTC days since the
-- epoch (finished_at is never before 1970, so integer division is the floor).

CREATE TRIGGER deal_scores_into_player_days AFTER INSERT ON deal_scores
BEGIN
    INSERT INTO player_days (server_id, day, player_id, points, seeger, deals, declared, won)
    VALUES (new.server_id, new.finished_at / 86400, new.player_id, new.score, new.seeger,
            CASE WHEN new.role <> 'out' THEN 1 ELSE 0 END,
            CASE WHEN new.role = 'declarer' THEN 1 ELSE 0 END,
            CASE WHEN new.role = 'declarer' AND new.won = 1 THEN 1 ELSE 0 END)
    ON CONFLICT (server_id, day, player_id) DO UPDATE SET
        points = player_days.points + excluded.points,
        seeger = player_days.seeger + excluded.seeger,
        deals = player_days.deals + excluded.deals,
        declared = player_days.declared + excluded.declared,
        won = player_days.won + excluded.won;
END;

CREATE TRIGGER deal_scores_out_of_player_days AFTER DELETE ON deal_scores
BEGIN
    UPDATE player_days SET
        points = points - old.score,
        seeger = seeger - old.seeger,
        deals = deals - CASE WHEN old.role <> 'out' THEN 1 ELSE 0 END,
        declared = declared - CASE WHEN old.role = 'declarer' THEN 1 ELSE 0 END,
        won = won - CASE WHEN old.role = 'declarer' AND old.won = 1 THEN 1 ELSE 0 END
    WHERE server_id = old.server_id AND day = old.finished_at / 86400 AND player_id = old.player_id;
END;
