-- What translation lost for each logged request: a JSON array of {"code", "message"} (see docs/warnings.md).
ALTER TABLE request_logs ADD COLUMN warnings TEXT NOT NULL DEFAULT '[]';
