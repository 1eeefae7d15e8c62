import { REDIS_SERVER, redisAvailable } from "../../scripts/bench/lib/redis-server.mjs";

export { redisAvailable, startRedis, type TestRedis } from "../../scripts/bench/lib/redis-server.mjs";

if (!redisAvailable) console.warn(`Redis tests skipped: no redis-server at ${REDIS_SERVER} (apt-get install -y redis-server, or set REDIS_SERVER_PATH)`);
