PRAGMA user_version = 4;
BEGIN TRANSACTION;
CREATE TABLE deal_records (
    deal_id     INTEGER PRIMARY KEY REFERENCES deals (deal_id) ON DELETE CASCADE,
    iss         TEXT    NOT NULL,
    record_json TEXT    NOT NULL
);
INSERT INTO "deal_records" VALUES(1,'(;GM[Skat]PC[skatbot]ID[1-1]DT[2026-12-01/14:31:22/UTC]P0[Bert]P1[Carla]P2[Anna]MV[w DA.CQ.S7.D9.CJ.HJ.DT.H8.H9.C9.H7.C8.SA.S8.HK.C7.SJ.S9.HQ.SK.HT.D7.CA.DJ.HA.SQ.CT.CK.DQ.ST.DK.D8 1 192 0 p 2 240 1 y 2 264 1 p 2 GO 0 CQ 1 C7 2 CT 2 CK 0 C9 1 C8 2 DJ 0 HJ 1 SJ]R[d:2 loss v:-528 m:-3 overbid p:21 t:2 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0] ;)','{"actions": [[1, "bid 192"], [0, "pass"], [2, "bid 240"], [1, "hold"], [2, "bid 264"], [1, "pass"], [2, "declare grand hand schneider schwarz ouvert"], [0, "play CQ"], [1, "play C7"], [2, "play CT"], [2, "play CK"], [0, "play C9"], [1, "play C8"], [2, "play DJ"], [0, "play HJ"], [1, "play SJ"]], "hands": [["DA", "CQ", "S7", "D9", "CJ", "HJ", "DT", "H8", "H9", "C9"], ["H7", "C8", "SA", "S8", "HK", "C7", "SJ", "S9", "HQ", "SK"], ["HT", "D7", "CA", "DJ", "HA", "SQ", "CT", "CK", "DQ", "ST"]], "id": "1-1", "players": [12, 13, 11], "rules": {"all_pass": "throw-in", "bock_triggers": [], "dakker_value": 59, "kontra": false, "kontra_needs_bid": false, "losses": "double", "musik": false, "ouvert_any_game": false, "ramsch_durchmarsch": true, "ramsch_jungfrau": false, "seeger_fabian": false}, "seed": 561021090885, "skat": ["DK", "D8"], "version": 1}');
INSERT INTO "deal_records" VALUES(2,'(;GM[Skat]PC[skatbot]ID[2-1]DT[2026-12-01/14:31:22/UTC]P0[Emil]P1[AI 1 (easy)]P2[Frieda]MV[w SJ.CA.CQ.H9.HA.DQ.HK.C7.ST.CK.SK.CT.H8.HJ.SA.H7.SQ.D9.S9.DK.C9.C8.DT.DA.S7.HQ.D8.HT.CJ.DJ.S8.D7 1 p 2 120 0 y 2 130 0 y 2 168 0 y 2 192 0 p 2 DHS 0 DQ 1 D9 2 D8 0 ST 1 S9 2 S7 0 H9 1 H7 2 HQ 2 HT 0 HA 1 H8 0 CQ 1 CT 2 C8 1 SA 2 CJ 0 SJ 2 DA 0 CK 1 HJ 1 SQ 2 DT 0 C7 2 C9 0 CA 1 SK 0 HK 1 DK 2 DJ]R[d:2 loss v:-396 m:1 overbid p:41 t:4 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0] ;)','{"actions": [[1, "pass"], [2, "bid 120"], [0, "hold"], [2, "bid 130"], [0, "hold"], [2, "bid 168"], [0, "hold"], [2, "bid 192"], [0, "pass"], [2, "declare diamonds hand schneider"], [0, "play DQ"], [1, "play D9"], [2, "play D8"], [0, "play ST"], [1, "play S9"], [2, "play S7"], [0, "play H9"], [1, "play H7"], [2, "play HQ"], [2, "play HT"], [0, "play HA"], [1, "play H8"], [0, "play CQ"], [1, "play CT"], [2, "play C8"], [1, "play SA"], [2, "play CJ"], [0, "play SJ"], [2, "play DA"], [0, "play CK"], [1, "play HJ"], [1, "play SQ"], [2, "play DT"], [0, "play C7"], [2, "play C9"], [0, "play CA"], [1, "play SK"], [0, "play HK"], [1, "play DK"], [2, "play DJ"]], "hands": [["SJ", "CA", "CQ", "H9", "HA", "DQ", "HK", "C7", "ST", "CK"], ["SK", "CT", "H8", "HJ", "SA", "H7", "SQ", "D9", "S9", "DK"], ["C9", "C8", "DT", "DA", "S7", "HQ", "D8", "HT", "CJ", "DJ"]], "id": "2-1", "players": [15, -101, 16], "rules": {"all_pass": "ramsch", "bock_triggers": ["kontra", "lost at 60"], "dakker_value": 59, "kontra": true, "kontra_needs_bid": false, "losses": "double", "musik": false, "ouvert_any_game": false, "ramsch_durchmarsch": true, "ramsch_jungfrau": false, "seeger_fabian": false}, "seed": 549512532852, "skat": ["S8", "D7"], "version": 1}');
INSERT INTO "deal_records" VALUES(3,'(;GM[Skat]PC[skatbot]ID[2-2]DT[2026-12-01/14:31:22/UTC]P0[AI 1 (easy)]P1[Frieda]P2[Dora]MV[w HA.D7.HT.CA.H7.S9.CJ.H8.DJ.DQ.D8.DT.CT.SJ.S8.H9.C8.C9.C7.HK.CK.HQ.ST.DK.SK.S7.D9.SQ.HJ.SA.CQ.DA 1 55 0 p 2 108 1 y 2 110 1 y 2 160 1 p 2 HH 0 CA 1 C8 2 CK 0 D7 1 D8 2 D9 2 SK 0 S9 1 S8 2 DK 0 DQ 1 DT 1 C7 2 HQ 0 DJ 0 H7 1 H9 2 HJ 2 SQ 0 H8 1 HK 1 SJ 2 S7 0 CJ 0 HT 1 CT 2 ST 0 HA 1 C9 2 SA]R[d:2 loss v:-320 m:-2 overbid p:20 t:3 s:1 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0] ;)','{"actions": [[1, "bid 55"], [0, "pass"], [2, "bid 108"], [1, "hold"], [2, "bid 110"], [1, "hold"], [2, "bid 160"], [1, "pass"], [2, "declare hearts hand"], [0, "play CA"], [1, "play C8"], [2, "play CK"], [0, "play D7"], [1, "play D8"], [2, "play D9"], [2, "play SK"], [0, "play S9"], [1, "play S8"], [2, "play DK"], [0, "play DQ"], [1, "play DT"], [1, "play C7"], [2, "play HQ"], [0, "play DJ"], [0, "play H7"], [1, "play H9"], [2, "play HJ"], [2, "play SQ"], [0, "play H8"], [1, "play HK"], [1, "play SJ"], [2, "play S7"], [0, "play CJ"], [0, "play HT"], [1, "play CT"], [2, "play ST"], [0, "play HA"], [1, "play C9"], [2, "play SA"]], "hands": [["HA", "D7", "HT", "CA", "H7", "S9", "CJ", "H8", "DJ", "DQ"], ["D8", "DT", "CT", "SJ", "S8", "H9", "C8", "C9", "C7", "HK"], ["CK", "HQ", "ST", "DK", "SK", "S7", "D9", "SQ", "HJ", "SA"]], "id": "2-2", "players": [-101, 16, 14], "rules": {"all_pass": "ramsch", "bock_triggers": ["kontra", "lost at 60"], "dakker_value": 59, "kontra": true, "kontra_needs_bid": false, "losses": "double", "musik": false, "ouvert_any_game": false, "ramsch_durchmarsch": true, "ramsch_jungfrau": false, "seeger_fabian": false}, "seed": 114456474197, "skat": ["CQ", "DA"], "version": 1}');
INSERT INTO "deal_records" VALUES(4,'(;GM[Skat]PC[skatbot]ID[4-1]DT[2026-12-01/14:31:22/UTC]P0[Ida]P1[Jan]P2[Hanna]MV[w HA.CA.C7.C8.SJ.HJ.C9.HK.HT.DQ.CQ.S7.CJ.SQ.H9.ST.DA.H7.D9.H8.SA.DT.CK.DJ.CT.S8.S9.SK.D8.HQ.D7.DK 1 20 0 p 2 180 1 p 2 SO 0 HT 1 H7 2 HQ]R[d:2 loss v:-374 m:-3 overbid p:4 t:0 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0] ;)','{"actions": [[1, "bid 20"], [0, "pass"], [2, "bid 180"], [1, "pass"], [2, "declare spades hand schneider schwarz ouvert"], [0, "play HT"], [1, "play H7"], [2, "play HQ"]], "hands": [["HA", "CA", "C7", "C8", "SJ", "HJ", "C9", "HK", "HT", "DQ"], ["CQ", "S7", "CJ", "SQ", "H9", "ST", "DA", "H7", "D9", "H8"], ["SA", "DT", "CK", "DJ", "CT", "S8", "S9", "SK", "D8", "HQ"]], "id": "4-1", "players": [19, 20, 18], "rules": {"all_pass": "throw-in", "bock_triggers": [], "dakker_value": 59, "kontra": false, "kontra_needs_bid": false, "losses": "double", "musik": false, "ouvert_any_game": false, "ramsch_durchmarsch": true, "ramsch_jungfrau": false, "seeger_fabian": false}, "seed": 816530002166, "skat": ["D7", "DK"], "version": 1}');
CREATE TABLE deal_scores (
    deal_id     INTEGER NOT NULL REFERENCES deals (deal_id) ON DELETE CASCADE,
    player_id   INTEGER NOT NULL REFERENCES players (player_id),
    seat        INTEGER,
    role        TEXT    NOT NULL CHECK (role IN ('declarer', 'defender', 'ramsch', 'passed', 'out')),
    won         INTEGER,
    score       INTEGER NOT NULL,
    seeger      INTEGER NOT NULL,
    server_id   INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    PRIMARY KEY (deal_id, player_id)
);
INSERT INTO "deal_scores" VALUES(1,11,2,'declarer',0,-528,-578,900,1796135482);
INSERT INTO "deal_scores" VALUES(1,12,0,'defender',1,0,40,900,1796135482);
INSERT INTO "deal_scores" VALUES(1,13,1,'defender',1,0,40,900,1796135482);
INSERT INTO "deal_scores" VALUES(2,14,NULL,'out',NULL,0,30,900,1796135482);
INSERT INTO "deal_scores" VALUES(2,15,0,'defender',1,0,30,900,1796135482);
INSERT INTO "deal_scores" VALUES(2,-101,1,'defender',1,0,30,900,1796135482);
INSERT INTO "deal_scores" VALUES(2,16,2,'declarer',0,-396,-446,900,1796135482);
INSERT INTO "deal_scores" VALUES(3,14,2,'declarer',0,-320,-370,900,1796135482);
INSERT INTO "deal_scores" VALUES(3,15,NULL,'out',NULL,0,30,900,1796135482);
INSERT INTO "deal_scores" VALUES(3,-101,0,'defender',1,0,30,900,1796135482);
INSERT INTO "deal_scores" VALUES(3,16,1,'defender',1,0,30,900,1796135482);
INSERT INTO "deal_scores" VALUES(4,18,2,'declarer',0,-374,-424,900,1796135482);
INSERT INTO "deal_scores" VALUES(4,19,0,'defender',1,0,40,900,1796135482);
INSERT INTO "deal_scores" VALUES(4,20,1,'defender',1,0,40,900,1796135482);
CREATE TABLE deals (
    deal_id         INTEGER PRIMARY KEY,
    table_id        INTEGER NOT NULL REFERENCES tables (table_id),
    deal_number     INTEGER NOT NULL CHECK (deal_number >= 1),
    server_id       INTEGER NOT NULL,
    declarer_id     INTEGER REFERENCES players (player_id),
    game            TEXT    NOT NULL,
    contract        TEXT    NOT NULL,
    hand            INTEGER NOT NULL,
    ouvert          INTEGER NOT NULL,
    bid             INTEGER NOT NULL,
    won             INTEGER NOT NULL,
    overbid         INTEGER NOT NULL,
    schneider       INTEGER NOT NULL,
    schwarz         INTEGER NOT NULL,
    matadors        INTEGER NOT NULL,
    declarer_points INTEGER NOT NULL,
    declarer_tricks INTEGER NOT NULL,
    multiplier      INTEGER NOT NULL,
    game_value      INTEGER NOT NULL,
    score           INTEGER NOT NULL,
    ending          TEXT    NOT NULL,
    kontra          INTEGER NOT NULL,
    re              INTEGER NOT NULL,
    bock            INTEGER NOT NULL DEFAULT 0,
    started_at      INTEGER NOT NULL,
    finished_at     INTEGER NOT NULL,
    UNIQUE (table_id, deal_number)
);
INSERT INTO "deals" VALUES(1,1,1,900,11,'grand','grand hand schneider schwarz ouvert',1,1,264,0,1,0,0,-3,21,2,10,264,-528,'settled',0,0,0,1796135482,1796135482);
INSERT INTO "deals" VALUES(2,2,1,900,16,'diamonds','diamonds hand schneider',1,0,192,0,1,0,0,1,41,4,5,198,-396,'played out',0,0,0,1796135482,1796135482);
INSERT INTO "deals" VALUES(3,2,2,900,14,'hearts','hearts hand',1,0,160,0,1,1,0,-2,20,3,5,160,-320,'played out',0,0,0,1796135482,1796135482);
INSERT INTO "deals" VALUES(4,4,1,900,18,'spades','spades hand schneider schwarz ouvert',1,1,180,0,1,0,0,-3,4,0,10,187,-374,'settled',0,0,0,1796135482,1796135482);
CREATE TABLE player_days (
    server_id INTEGER NOT NULL,
    day       INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (player_id),
    points    INTEGER NOT NULL,
    seeger    INTEGER NOT NULL,
    deals     INTEGER NOT NULL,
    declared  INTEGER NOT NULL,
    won       INTEGER NOT NULL,
    PRIMARY KEY (server_id, day, player_id)
);
INSERT INTO "player_days" VALUES(900,20788,11,-528,-578,1,1,0);
INSERT INTO "player_days" VALUES(900,20788,12,0,40,1,0,0);
INSERT INTO "player_days" VALUES(900,20788,13,0,40,1,0,0);
INSERT INTO "player_days" VALUES(900,20788,14,-320,-340,1,1,0);
INSERT INTO "player_days" VALUES(900,20788,15,0,60,1,0,0);
INSERT INTO "player_days" VALUES(900,20788,-101,0,60,2,0,0);
INSERT INTO "player_days" VALUES(900,20788,16,-396,-416,2,1,0);
INSERT INTO "player_days" VALUES(900,20788,18,-374,-424,1,1,0);
INSERT INTO "player_days" VALUES(900,20788,19,0,40,1,0,0);
INSERT INTO "player_days" VALUES(900,20788,20,0,40,1,0,0);
CREATE TABLE players (
    player_id    INTEGER PRIMARY KEY,
    display_name TEXT    NOT NULL,
    is_ai        INTEGER NOT NULL DEFAULT 0 CHECK (is_ai IN (0, 1)),
    updated_at   INTEGER NOT NULL
);
INSERT INTO "players" VALUES(-101,'AI 1 (easy)',1,1796135482);
INSERT INTO "players" VALUES(11,'Anna',0,1796135482);
INSERT INTO "players" VALUES(12,'Bert',0,1796135482);
INSERT INTO "players" VALUES(13,'Carla',0,1796135482);
INSERT INTO "players" VALUES(14,'Dora',0,1796135482);
INSERT INTO "players" VALUES(15,'Emil',0,1796135482);
INSERT INTO "players" VALUES(16,'Frieda',0,1796135482);
INSERT INTO "players" VALUES(17,'Gustav',0,1796135482);
INSERT INTO "players" VALUES(18,'Hanna',0,1796135482);
INSERT INTO "players" VALUES(19,'Ida',0,1796135482);
INSERT INTO "players" VALUES(20,'Jan',0,1796135482);
CREATE TABLE series_results (
    table_id    INTEGER NOT NULL REFERENCES tables (table_id),
    player_id   INTEGER NOT NULL REFERENCES players (player_id),
    server_id   INTEGER NOT NULL,
    place       INTEGER NOT NULL CHECK (place >= 1),
    total       INTEGER NOT NULL,
    seeger      INTEGER NOT NULL,
    deals       INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    PRIMARY KEY (table_id, player_id)
);
INSERT INTO "series_results" VALUES(4,19,900,1,0,40,1,1796135482);
INSERT INTO "series_results" VALUES(4,20,900,1,0,40,1,1796135482);
INSERT INTO "series_results" VALUES(4,18,900,3,-374,-424,1,1796135482);
CREATE TABLE servers (
    server_id        INTEGER PRIMARY KEY,
    rule_preset      TEXT    NOT NULL DEFAULT 'official',
    rules_json       TEXT    NOT NULL DEFAULT '{}',
    turn_seconds     INTEGER NOT NULL DEFAULT 60 CHECK (turn_seconds > 0),
    warning_seconds  INTEGER NOT NULL DEFAULT 15 CHECK (warning_seconds >= 0),
    deck_style       TEXT    NOT NULL DEFAULT 'french' CHECK (deck_style IN ('french', 'german')),
    language         TEXT    NOT NULL DEFAULT 'en',
    channel_policy   TEXT    NOT NULL DEFAULT 'channel' CHECK (channel_policy IN ('thread', 'channel')),
    allowed_channels TEXT    NOT NULL DEFAULT '[]',
    updated_at       INTEGER NOT NULL
);
INSERT INTO "servers" VALUES(900,'official','{}',60,15,'french','en','channel','[]',1796135482);
CREATE TABLE table_log (
    table_id    INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    deal_number INTEGER NOT NULL CHECK (deal_number >= 1),
    kind        TEXT    NOT NULL CHECK (kind IN ('deal', 'action', 'event')),
    seat        INTEGER,
    payload     TEXT    NOT NULL,
    at          INTEGER NOT NULL,
    PRIMARY KEY (table_id, seq)
);
INSERT INTO "table_log" VALUES(1,0,1,'event',NULL,'seats 3',1796135482);
INSERT INTO "table_log" VALUES(1,1,1,'event',NULL,'join 11 Anna',1796135482);
INSERT INTO "table_log" VALUES(1,2,1,'event',NULL,'join 12 Bert',1796135482);
INSERT INTO "table_log" VALUES(1,3,1,'event',NULL,'join 13 Carla',1796135482);
INSERT INTO "table_log" VALUES(1,4,1,'event',NULL,'start',1796135482);
INSERT INTO "table_log" VALUES(1,5,1,'deal',NULL,'{"hands": [["DA", "CQ", "S7", "D9", "CJ", "HJ", "DT", "H8", "H9", "C9"], ["H7", "C8", "SA", "S8", "HK", "C7", "SJ", "S9", "HQ", "SK"], ["HT", "D7", "CA", "DJ", "HA", "SQ", "CT", "CK", "DQ", "ST"]], "number": 0, "seed": 561021090885, "skat": ["DK", "D8"]}',1796135482);
INSERT INTO "table_log" VALUES(1,6,1,'action',1,'bid 192',1796135482);
INSERT INTO "table_log" VALUES(1,7,1,'action',0,'pass',1796135482);
INSERT INTO "table_log" VALUES(1,8,1,'action',2,'bid 240',1796135482);
INSERT INTO "table_log" VALUES(1,9,1,'action',1,'hold',1796135482);
INSERT INTO "table_log" VALUES(1,10,1,'action',2,'bid 264',1796135482);
INSERT INTO "table_log" VALUES(1,11,1,'action',1,'pass',1796135482);
INSERT INTO "table_log" VALUES(1,12,1,'action',2,'declare grand hand schneider schwarz ouvert',1796135482);
INSERT INTO "table_log" VALUES(1,13,1,'action',0,'play CQ',1796135482);
INSERT INTO "table_log" VALUES(1,14,1,'action',1,'play C7',1796135482);
INSERT INTO "table_log" VALUES(1,15,1,'action',2,'play CT',1796135482);
INSERT INTO "table_log" VALUES(1,16,1,'action',2,'play CK',1796135482);
INSERT INTO "table_log" VALUES(1,17,1,'action',0,'play C9',1796135482);
INSERT INTO "table_log" VALUES(1,18,1,'action',1,'play C8',1796135482);
INSERT INTO "table_log" VALUES(1,19,1,'action',2,'play DJ',1796135482);
INSERT INTO "table_log" VALUES(1,20,1,'action',0,'play HJ',1796135482);
INSERT INTO "table_log" VALUES(1,21,1,'action',1,'play SJ',1796135482);
INSERT INTO "table_log" VALUES(1,22,2,'deal',NULL,'{"hands": [["D9", "HA", "DJ", "H8", "HT", "SA", "CA", "D8", "DK", "S9"], ["D7", "H9", "CT", "C8", "DA", "HK", "SK", "SQ", "C7", "S7"], ["HJ", "C9", "DQ", "HQ", "CK", "SJ", "CJ", "CQ", "S8", "H7"]], "number": 1, "seed": 789164966041, "skat": ["ST", "DT"]}',1796135482);
INSERT INTO "table_log" VALUES(1,23,2,'action',1,'bid 192',1796135482);
INSERT INTO "table_log" VALUES(1,24,2,'action',0,'hold',1796135482);
INSERT INTO "table_log" VALUES(1,25,2,'action',1,'bid 264',1796135482);
INSERT INTO "table_log" VALUES(1,26,2,'action',0,'hold',1796135482);
INSERT INTO "table_log" VALUES(1,27,2,'action',1,'pass',1796135482);
INSERT INTO "table_log" VALUES(1,28,2,'action',2,'pass',1796135482);
INSERT INTO "table_log" VALUES(1,29,2,'action',0,'declare diamonds hand',1796135482);
INSERT INTO "table_log" VALUES(1,30,2,'action',0,'play DK',1796135482);
INSERT INTO "table_log" VALUES(1,31,2,'action',1,'play D7',1796135482);
INSERT INTO "table_log" VALUES(1,32,2,'action',2,'play DQ',1796135482);
INSERT INTO "table_log" VALUES(1,33,2,'action',0,'play SA',1796135482);
INSERT INTO "table_log" VALUES(1,34,2,'action',1,'play SQ',1796135482);
INSERT INTO "table_log" VALUES(1,35,2,'action',2,'play S8',1796135482);
INSERT INTO "table_log" VALUES(1,36,2,'action',0,'play H8',1796135482);
INSERT INTO "table_log" VALUES(1,37,2,'action',1,'play H9',1796135482);
INSERT INTO "table_log" VALUES(1,38,2,'action',2,'play HQ',1796135482);
INSERT INTO "table_log" VALUES(1,39,2,'action',2,'play C9',1796135482);
INSERT INTO "table_log" VALUES(1,40,2,'action',0,'play CA',1796135482);
INSERT INTO "table_log" VALUES(1,41,2,'action',1,'play CT',1796135482);
INSERT INTO "table_log" VALUES(1,42,2,'action',0,'play D8',1796135482);
INSERT INTO "table_log" VALUES(1,43,2,'action',1,'play DA',1796135482);
INSERT INTO "table_log" VALUES(1,44,2,'action',2,'play CJ',1796135482);
INSERT INTO "table_log" VALUES(1,45,2,'action',2,'play SJ',1796135482);
INSERT INTO "table_log" VALUES(1,46,2,'action',0,'play DJ',1796135482);
INSERT INTO "table_log" VALUES(1,47,2,'action',1,'play C8',1796135482);
INSERT INTO "table_log" VALUES(1,48,2,'action',2,'play H7',1796135482);
INSERT INTO "table_log" VALUES(1,49,2,'action',0,'play HA',1796135482);
INSERT INTO "table_log" VALUES(1,50,2,'action',1,'play HK',1796135482);
INSERT INTO "table_log" VALUES(1,51,2,'action',0,'play D9',1796135482);
INSERT INTO "table_log" VALUES(2,0,1,'event',NULL,'seats 4',1796135482);
INSERT INTO "table_log" VALUES(2,1,1,'event',NULL,'join 14 Dora',1796135482);
INSERT INTO "table_log" VALUES(2,2,1,'event',NULL,'join 15 Emil',1796135482);
INSERT INTO "table_log" VALUES(2,3,1,'event',NULL,'add-ai easy',1796135482);
INSERT INTO "table_log" VALUES(2,4,1,'event',NULL,'join 16 Frieda',1796135482);
INSERT INTO "table_log" VALUES(2,5,1,'event',NULL,'start',1796135482);
INSERT INTO "table_log" VALUES(2,6,1,'deal',NULL,'{"hands": [["SJ", "CA", "CQ", "H9", "HA", "DQ", "HK", "C7", "ST", "CK"], ["SK", "CT", "H8", "HJ", "SA", "H7", "SQ", "D9", "S9", "DK"], ["C9", "C8", "DT", "DA", "S7", "HQ", "D8", "HT", "CJ", "DJ"]], "number": 0, "seed": 549512532852, "skat": ["S8", "D7"]}',1796135482);
INSERT INTO "table_log" VALUES(2,7,1,'action',1,'pass',1796135482);
INSERT INTO "table_log" VALUES(2,8,1,'action',2,'bid 120',1796135482);
INSERT INTO "table_log" VALUES(2,9,1,'action',0,'hold',1796135482);
INSERT INTO "table_log" VALUES(2,10,1,'action',2,'bid 130',1796135482);
INSERT INTO "table_log" VALUES(2,11,1,'action',0,'hold',1796135482);
INSERT INTO "table_log" VALUES(2,12,1,'action',2,'bid 168',1796135482);
INSERT INTO "table_log" VALUES(2,13,1,'action',0,'hold',1796135482);
INSERT INTO "table_log" VALUES(2,14,1,'action',2,'bid 192',1796135482);
INSERT INTO "table_log" VALUES(2,15,1,'action',0,'pass',1796135482);
INSERT INTO "table_log" VALUES(2,16,1,'action',2,'declare diamonds hand schneider',1796135482);
INSERT INTO "table_log" VALUES(2,17,1,'action',0,'play DQ',1796135482);
INSERT INTO "table_log" VALUES(2,18,1,'action',1,'play D9',1796135482);
INSERT INTO "table_log" VALUES(2,19,1,'action',2,'play D8',1796135482);
INSERT INTO "table_log" VALUES(2,20,1,'action',0,'play ST',1796135482);
INSERT INTO "table_log" VALUES(2,21,1,'action',1,'play S9',1796135482);
INSERT INTO "table_log" VALUES(2,22,1,'action',2,'play S7',1796135482);
INSERT INTO "table_log" VALUES(2,23,1,'action',0,'play H9',1796135482);
INSERT INTO "table_log" VALUES(2,24,1,'action',1,'play H7',1796135482);
INSERT INTO "table_log" VALUES(2,25,1,'action',2,'play HQ',1796135482);
INSERT INTO "table_log" VALUES(2,26,1,'action',2,'play HT',1796135482);
INSERT INTO "table_log" VALUES(2,27,1,'action',0,'play HA',1796135482);
INSERT INTO "table_log" VALUES(2,28,1,'action',1,'play H8',1796135482);
INSERT INTO "table_log" VALUES(2,29,1,'action',0,'play CQ',1796135482);
INSERT INTO "table_log" VALUES(2,30,1,'action',1,'play CT',1796135482);
INSERT INTO "table_log" VALUES(2,31,1,'action',2,'play C8',1796135482);
INSERT INTO "table_log" VALUES(2,32,1,'action',1,'play SA',1796135482);
INSERT INTO "table_log" VALUES(2,33,1,'action',2,'play CJ',1796135482);
INSERT INTO "table_log" VALUES(2,34,1,'action',0,'play SJ',1796135482);
INSERT INTO "table_log" VALUES(2,35,1,'action',2,'play DA',1796135482);
INSERT INTO "table_log" VALUES(2,36,1,'action',0,'play CK',1796135482);
INSERT INTO "table_log" VALUES(2,37,1,'action',1,'play HJ',1796135482);
INSERT INTO "table_log" VALUES(2,38,1,'action',1,'play SQ',1796135482);
INSERT INTO "table_log" VALUES(2,39,1,'action',2,'play DT',1796135482);
INSERT INTO "table_log" VALUES(2,40,1,'action',0,'play C7',1796135482);
INSERT INTO "table_log" VALUES(2,41,1,'action',2,'play C9',1796135482);
INSERT INTO "table_log" VALUES(2,42,1,'action',0,'play CA',1796135482);
INSERT INTO "table_log" VALUES(2,43,1,'action',1,'play SK',1796135482);
INSERT INTO "table_log" VALUES(2,44,1,'action',0,'play HK',1796135482);
INSERT INTO "table_log" VALUES(2,45,1,'action',1,'play DK',1796135482);
INSERT INTO "table_log" VALUES(2,46,1,'action',2,'play DJ',1796135482);
INSERT INTO "table_log" VALUES(2,47,2,'deal',NULL,'{"hands": [["HA", "D7", "HT", "CA", "H7", "S9", "CJ", "H8", "DJ", "DQ"], ["D8", "DT", "CT", "SJ", "S8", "H9", "C8", "C9", "C7", "HK"], ["CK", "HQ", "ST", "DK", "SK", "S7", "D9", "SQ", "HJ", "SA"]], "number": 1, "seed": 114456474197, "skat": ["CQ", "DA"]}',1796135482);
INSERT INTO "table_log" VALUES(2,48,2,'action',1,'bid 55',1796135482);
INSERT INTO "table_log" VALUES(2,49,2,'action',0,'pass',1796135482);
INSERT INTO "table_log" VALUES(2,50,2,'action',2,'bid 108',1796135482);
INSERT INTO "table_log" VALUES(2,51,2,'action',1,'hold',1796135482);
INSERT INTO "table_log" VALUES(2,52,2,'action',2,'bid 110',1796135482);
INSERT INTO "table_log" VALUES(2,53,2,'action',1,'hold',1796135482);
INSERT INTO "table_log" VALUES(2,54,2,'action',2,'bid 160',1796135482);
INSERT INTO "table_log" VALUES(2,55,2,'action',1,'pass',1796135482);
INSERT INTO "table_log" VALUES(2,56,2,'action',2,'declare hearts hand',1796135482);
INSERT INTO "table_log" VALUES(2,57,2,'action',0,'play CA',1796135482);
INSERT INTO "table_log" VALUES(2,58,2,'action',1,'play C8',1796135482);
INSERT INTO "table_log" VALUES(2,59,2,'action',2,'play CK',1796135482);
INSERT INTO "table_log" VALUES(2,60,2,'action',0,'play D7',1796135482);
INSERT INTO "table_log" VALUES(2,61,2,'action',1,'play D8',1796135482);
INSERT INTO "table_log" VALUES(2,62,2,'action',2,'play D9',1796135482);
INSERT INTO "table_log" VALUES(2,63,2,'action',2,'play SK',1796135482);
INSERT INTO "table_log" VALUES(2,64,2,'action',0,'play S9',1796135482);
INSERT INTO "table_log" VALUES(2,65,2,'action',1,'play S8',1796135482);
INSERT INTO "table_log" VALUES(2,66,2,'action',2,'play DK',1796135482);
INSERT INTO "table_log" VALUES(2,67,2,'action',0,'play DQ',1796135482);
INSERT INTO "table_log" VALUES(2,68,2,'action',1,'play DT',1796135482);
INSERT INTO "table_log" VALUES(2,69,2,'action',1,'play C7',1796135482);
INSERT INTO "table_log" VALUES(2,70,2,'action',2,'play HQ',1796135482);
INSERT INTO "table_log" VALUES(2,71,2,'action',0,'play DJ',1796135482);
INSERT INTO "table_log" VALUES(2,72,2,'action',0,'play H7',1796135482);
INSERT INTO "table_log" VALUES(2,73,2,'action',1,'play H9',1796135482);
INSERT INTO "table_log" VALUES(2,74,2,'action',2,'play HJ',1796135482);
INSERT INTO "table_log" VALUES(2,75,2,'action',2,'play SQ',1796135482);
INSERT INTO "table_log" VALUES(2,76,2,'action',0,'play H8',1796135482);
INSERT INTO "table_log" VALUES(2,77,2,'action',1,'play HK',1796135482);
INSERT INTO "table_log" VALUES(2,78,2,'action',1,'play SJ',1796135482);
INSERT INTO "table_log" VALUES(2,79,2,'action',2,'play S7',1796135482);
INSERT INTO "table_log" VALUES(2,80,2,'action',0,'play CJ',1796135482);
INSERT INTO "table_log" VALUES(2,81,2,'action',0,'play HT',1796135482);
INSERT INTO "table_log" VALUES(2,82,2,'action',1,'play CT',1796135482);
INSERT INTO "table_log" VALUES(2,83,2,'action',2,'play ST',1796135482);
INSERT INTO "table_log" VALUES(2,84,2,'action',0,'play HA',1796135482);
INSERT INTO "table_log" VALUES(2,85,2,'action',1,'play C9',1796135482);
INSERT INTO "table_log" VALUES(2,86,2,'action',2,'play SA',1796135482);
INSERT INTO "table_log" VALUES(2,87,3,'deal',NULL,'{"hands": [["CK", "DT", "H7", "S9", "S8", "C7", "HJ", "S7", "SQ", "SK"], ["DQ", "D9", "D8", "CT", "SJ", "H8", "D7", "CQ", "C8", "HQ"], ["DK", "CA", "ST", "DA", "HT", "HK", "H9", "CJ", "C9", "DJ"]], "number": 2, "seed": 347466721851, "skat": ["HA", "SA"]}',1796135482);
INSERT INTO "table_log" VALUES(2,88,3,'action',1,'bid 84',1796135482);
INSERT INTO "table_log" VALUES(2,89,3,'action',0,'pass',1796135482);
INSERT INTO "table_log" VALUES(2,90,3,'action',2,'bid 144',1796135482);
INSERT INTO "table_log" VALUES(3,0,1,'event',NULL,'seats 3',1796135482);
INSERT INTO "table_log" VALUES(3,1,1,'event',NULL,'join 17 Gustav',1796135482);
INSERT INTO "table_log" VALUES(3,2,1,'event',NULL,'add-ai normal',1796135482);
INSERT INTO "table_log" VALUES(4,0,1,'event',NULL,'seats 3',1796135482);
INSERT INTO "table_log" VALUES(4,1,1,'event',NULL,'join 18 Hanna',1796135482);
INSERT INTO "table_log" VALUES(4,2,1,'event',NULL,'join 19 Ida',1796135482);
INSERT INTO "table_log" VALUES(4,3,1,'event',NULL,'join 20 Jan',1796135482);
INSERT INTO "table_log" VALUES(4,4,1,'event',NULL,'start',1796135482);
INSERT INTO "table_log" VALUES(4,5,1,'deal',NULL,'{"hands": [["HA", "CA", "C7", "C8", "SJ", "HJ", "C9", "HK", "HT", "DQ"], ["CQ", "S7", "CJ", "SQ", "H9", "ST", "DA", "H7", "D9", "H8"], ["SA", "DT", "CK", "DJ", "CT", "S8", "S9", "SK", "D8", "HQ"]], "number": 0, "seed": 816530002166, "skat": ["D7", "DK"]}',1796135482);
INSERT INTO "table_log" VALUES(4,6,1,'action',1,'bid 20',1796135482);
INSERT INTO "table_log" VALUES(4,7,1,'action',0,'pass',1796135482);
INSERT INTO "table_log" VALUES(4,8,1,'action',2,'bid 180',1796135482);
INSERT INTO "table_log" VALUES(4,9,1,'action',1,'pass',1796135482);
INSERT INTO "table_log" VALUES(4,10,1,'action',2,'declare spades hand schneider schwarz ouvert',1796135482);
INSERT INTO "table_log" VALUES(4,11,1,'action',0,'play HT',1796135482);
INSERT INTO "table_log" VALUES(4,12,1,'action',1,'play H7',1796135482);
INSERT INTO "table_log" VALUES(4,13,1,'action',2,'play HQ',1796135482);
CREATE TABLE table_seats (
    table_id  INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    player_id INTEGER NOT NULL REFERENCES players (player_id),
    PRIMARY KEY (table_id, seat)
);
INSERT INTO "table_seats" VALUES(1,0,11);
INSERT INTO "table_seats" VALUES(1,1,12);
INSERT INTO "table_seats" VALUES(1,2,13);
INSERT INTO "table_seats" VALUES(2,0,14);
INSERT INTO "table_seats" VALUES(2,1,15);
INSERT INTO "table_seats" VALUES(2,2,-101);
INSERT INTO "table_seats" VALUES(2,3,16);
INSERT INTO "table_seats" VALUES(4,0,18);
INSERT INTO "table_seats" VALUES(4,1,19);
INSERT INTO "table_seats" VALUES(4,2,20);
CREATE TABLE tables (
    table_id      INTEGER PRIMARY KEY,
    server_id     INTEGER NOT NULL REFERENCES servers (server_id),
    channel_id    INTEGER NOT NULL,
    thread_id     INTEGER,
    creator_id    INTEGER NOT NULL REFERENCES players (player_id),
    rule_preset   TEXT    NOT NULL,
    rules_json    TEXT    NOT NULL,
    series_length INTEGER NOT NULL CHECK (series_length > 0),
    state         TEXT    NOT NULL CHECK (state IN ('open', 'playing', 'finished', 'abandoned')),
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);
INSERT INTO "tables" VALUES(1,900,901,NULL,11,'official','{"all_pass": "throw-in", "bock_triggers": [], "dakker_value": 59, "kontra": false, "kontra_needs_bid": false, "losses": "double", "musik": false, "ouvert_any_game": false, "ramsch_durchmarsch": true, "ramsch_jungfrau": false, "seeger_fabian": false}',4,'playing',1796135482,1796135482);
INSERT INTO "tables" VALUES(2,900,902,9021,14,'pub','{"all_pass": "ramsch", "bock_triggers": ["kontra", "lost at 60"], "dakker_value": 59, "kontra": true, "kontra_needs_bid": false, "losses": "double", "musik": false, "ouvert_any_game": false, "ramsch_durchmarsch": true, "ramsch_jungfrau": false, "seeger_fabian": false}',6,'playing',1796135482,1796135482);
INSERT INTO "tables" VALUES(3,900,903,NULL,17,'official','{"all_pass": "throw-in", "bock_triggers": [], "dakker_value": 59, "kontra": false, "kontra_needs_bid": false, "losses": "double", "musik": false, "ouvert_any_game": false, "ramsch_durchmarsch": true, "ramsch_jungfrau": false, "seeger_fabian": false}',3,'open',1796135482,1796135482);
INSERT INTO "tables" VALUES(4,900,904,NULL,18,'official','{"all_pass": "throw-in", "bock_triggers": [], "dakker_value": 59, "kontra": false, "kontra_needs_bid": false, "losses": "double", "musik": false, "ouvert_any_game": false, "ramsch_durchmarsch": true, "ramsch_jungfrau": false, "seeger_fabian": false}',1,'finished',1796135482,1796135482);
CREATE INDEX tables_by_state ON tables (state, table_id);
CREATE INDEX tables_by_server ON tables (server_id, created_at);
CREATE INDEX deals_by_server ON deals (server_id, finished_at);
CREATE INDEX deal_scores_by_time ON deal_scores (server_id, finished_at, player_id, score, seeger, role, won);
CREATE INDEX series_results_by_server ON series_results (server_id, finished_at);
CREATE INDEX series_results_by_player ON series_results (server_id, player_id, total);
CREATE INDEX deal_scores_by_player ON deal_scores (server_id, player_id, finished_at, role, won, score, seeger, deal_id);
CREATE INDEX deals_by_declarer ON deals (server_id, declarer_id, finished_at, game, hand, ouvert);
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
COMMIT;
