#!/usr/bin/env bash
# A single-node Kafka 3.9 broker in KRaft mode for integration tests, from Maven Central jars.
#   scripts/kafka.sh start|stop|status
# Environment: KAFKA_PORT (19092; the controller uses the next port), KAFKA_DIR (.kafka: logs and
# data), KAFKA_JARS (~/.cache/fieldcast/kafka-3.9.1: fetched once, reused by later runs).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
port=${KAFKA_PORT:-19092}
controller=$((port + 1))
dir=${KAFKA_DIR:-$root/.kafka}
jars=${KAFKA_JARS:-${XDG_CACHE_HOME:-$HOME/.cache}/fieldcast/kafka-3.9.1}
pidfile=$dir/kafka.pid

fetch() {
  [ -f "$jars/.complete" ] && return 0
  echo "kafka: fetching broker jars into $jars"
  mkdir -p "$jars"
  mvn -q -B -f "$root/scripts/kafka/pom.xml" dependency:copy-dependencies \
    -DoutputDirectory="$jars" -DincludeScope=runtime
  touch "$jars/.complete"
}

running() {
  [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
}

start() {
  if running; then echo "kafka: already running (pid $(cat "$pidfile"))"; return 0; fi
  if port_open; then echo "kafka: port $port is taken by another process; set KAFKA_PORT" >&2; exit 1; fi
  fetch
  mkdir -p "$dir/data" "$dir/logs"
  cat > "$dir/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
log.dirs=$dir/data
num.partitions=3
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
  local cp="$jars/*"
  if [ ! -f "$dir/data/meta.properties" ]; then
    java -cp "$cp" -Dlog4j.configuration="file:$root/scripts/kafka/log4j.properties" -Dkafka.logs.dir="$dir/logs" \
      kafka.tools.StorageTool format -t "$(java -cp "$cp" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -1)" \
      -c "$dir/server.properties" >"$dir/logs/format.log" 2>&1
  fi
  nohup java -Xms256m -Xmx768m -cp "$cp" \
    -Dlog4j.configuration="file:$root/scripts/kafka/log4j.properties" -Dkafka.logs.dir="$dir/logs" \
    kafka.Kafka "$dir/server.properties" >"$dir/logs/stdout.log" 2>&1 &
  echo $! >"$pidfile"
  for _ in $(seq 1 120); do
    if running && port_open; then
      echo "kafka: up on 127.0.0.1:$port (pid $(cat "$pidfile"))"
      if [ -f "$root/node_modules/kafkajs/package.json" ]; then
        KAFKA_BROKERS="127.0.0.1:$port" node "$root/scripts/kafka/create-topics.mjs" "$root/scripts/kafka/topics.txt"
      fi
      return 0
    fi
    if ! running; then echo "kafka: exited during start-up; see $dir/logs" >&2; tail -20 "$dir/logs/stdout.log" >&2; exit 1; fi
    sleep 0.5
  done
  echo "kafka: not listening after 60 s; see $dir/logs" >&2
  exit 1
}

stop() {
  if ! running; then echo "kafka: not running"; rm -f "$pidfile"; return 0; fi
  local pid; pid=$(cat "$pidfile")
  kill "$pid"
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$pidfile"
  echo "kafka: stopped"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) if running; then echo "kafka: running (pid $(cat "$pidfile"))"; else echo "kafka: not running"; exit 1; fi ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
