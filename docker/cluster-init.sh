#!/bin/sh
# Join the Redis nodes listed in NODES ("host:port host:port ...") into one cluster, with REPLICAS replicas per
# master (default 0: masters only; with 1, six nodes make three masters and their three replicas), or do nothing
# when they already are one. Safe to run at every `docker compose up`:
#   - fresh nodes (no slot assigned): create the cluster;
#   - nodes that keep their slots in nodes.conf but lost each other (containers re-created with new
#     addresses): introduce them again with CLUSTER MEET at their current addresses;
# then wait until the first node reports cluster_state:ok (at most 60 s).
set -eu
: "${NODES:?NODES must list the cluster nodes as host:port separated by spaces}"

first=${NODES%% *}
first_host=${first%:*}
first_port=${first##*:}

field() {  # field NAME: a value of CLUSTER INFO on the first node
    redis-cli -h "$first_host" -p "$first_port" cluster info | tr -d '\r' | sed -n "s/^$1://p"
}

if [ "$(field cluster_state)" != ok ]; then
    if [ "$(field cluster_slots_assigned)" = 0 ]; then
        # shellcheck disable=SC2086  # NODES is a list of words
        redis-cli --cluster create $NODES --cluster-replicas "${REPLICAS:-0}" --cluster-yes
    else
        for node in $NODES; do
            address=$(getent hosts "${node%:*}" | awk '{ print $1; exit }')
            redis-cli -h "$first_host" -p "$first_port" cluster meet "$address" "${node##*:}" > /dev/null
        done
    fi
fi

tries=0
until [ "$(field cluster_state)" = ok ]; do
    tries=$((tries + 1))
    if [ "$tries" -gt 60 ]; then
        echo "the cluster is not ok after 60 s: $(field cluster_state)" >&2
        exit 1
    fi
    sleep 1
done
echo "cluster ok: $NODES"
