-- Twin of migrations/sqlite/0002: player statistics read only indexes.

DROP INDEX deal_scores_by_player;
CREATE INDEX deal_scores_by_player ON deal_scores (server_id, player_id, finished_at, role, won, score, seeger, deal_id);
CREATE INDEX deals_by_declarer ON deals (server_id, declarer_id, finished_at, game, hand, ouvert);
