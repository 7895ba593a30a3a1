#!/usr/bin/env bash
# Writes data/import/aware-mysql/: the tables of data/import/aware as an AWARE server keeps them in
# MySQL, dumped by a real MariaDB server's own dump tool, for `import --from aware`.
#
#   scripts/aware-dump-fixture.sh [outdir]
#
# Needs Debian's mariadb-server (apt-get install mariadb-server mariadb-client). The server runs
# in a scratch directory on a Unix socket only (no TCP), as the `mysql` user under root, and is
# shut down (or its process group killed) whatever happens. The tables are AWARE's, as its
# server creates them (`_id`, `timestamp` a double of Unix milliseconds, `device_id`, then the
# sensor's columns), with the rows of data/import/aware's CSV files; beside them two tables an
# AWARE database also holds (`aware_device`, `locations`), which the import names and skips.
# One application_name holds a quote, a double quote and a backslash, to be escaped.
# Writes two dumps: `aware.sql` as mariadb-dump writes by default (one INSERT per table, its rows
# on one line, no column names) and `aware-complete.sql` with --complete-insert
# --skip-extended-insert (the columns named, one INSERT per row), as phpMyAdmin-like tools do.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-data/import/aware-mysql}
mkdir -p "$out"
work=$(mktemp -d)
chmod 755 "$work"
pidfile="$work/mariadb.pid"
stop() {
  if [[ -f "$pidfile" ]]; then
    mariadb-admin --socket="$work/sock" -u root shutdown 2>/dev/null || kill -- -"$(cat "$pidfile")" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap stop EXIT
owner=()
if [[ $(id -u) -eq 0 ]]; then chown mysql: "$work"; owner=(--user=mysql); fi
mariadb-install-db --no-defaults "${owner[@]}" --datadir="$work/data" --auth-root-authentication-method=normal --skip-test-db >"$work/install.log" 2>&1 \
  || { cat "$work/install.log" >&2; exit 1; }
setsid mariadbd --no-defaults "${owner[@]}" --datadir="$work/data" --socket="$work/sock" --skip-networking \
  --pid-file="$pidfile" --log-error="$work/error.log" &
for _ in $(seq 1 120); do [[ -S "$work/sock" ]] && break; sleep 0.5; done
[[ -S "$work/sock" ]] || { cat "$work/error.log" >&2; exit 1; }
sql() { mariadb --socket="$work/sock" -u root "$@"; }

python3 - data/import/aware > "$work/load.sql" <<'PY'
import csv, os, sys
src = sys.argv[1]
columns = {
    "applications_foreground": "`package_name` text, `application_name` text, `is_system_app` int(11) DEFAULT '0'",
    "battery": "`battery_status` int(11) DEFAULT '0', `battery_level` int(11) DEFAULT '0', `battery_scale` int(11) DEFAULT '0', "
               "`battery_voltage` int(11) DEFAULT '0', `battery_temperature` int(11) DEFAULT '0', `battery_adaptor` int(11) DEFAULT '0', "
               "`battery_health` int(11) DEFAULT '0', `battery_technology` text",
    "network": "`network_type` int(11) DEFAULT '0', `network_subtype` text, `network_state` int(11) DEFAULT '0'",
    "screen": "`screen_status` int(11) DEFAULT '0'",
    "timezone": "`timezone_id` text",
}
print("CREATE DATABASE aware CHARACTER SET utf8mb4; USE aware;")
for table, rest in columns.items():
    print(f"CREATE TABLE `{table}` (`_id` int(11) NOT NULL AUTO_INCREMENT, `timestamp` double DEFAULT '0', "
          f"`device_id` varchar(150) DEFAULT '', {rest}, PRIMARY KEY (`_id`), KEY `time_device` (`timestamp`,`device_id`)) "
          "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;")
    with open(os.path.join(src, table + ".csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        if table == "applications_foreground" and row["package_name"] == "fi.yle.areena":
            row["application_name"] = "Yle Areena, TV: O'Reilly \"Live\" \\ Beta"
        names = ", ".join(f"`{k}`" for k in row)
        values = ", ".join("'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'" for v in row.values())
        print(f"INSERT INTO `{table}` ({names}) VALUES ({values});")
print("CREATE TABLE `aware_device` (`_id` int(11) NOT NULL AUTO_INCREMENT, `timestamp` double DEFAULT '0', "
      "`device_id` varchar(150) DEFAULT '', `board` text, `brand` text, `label` text, PRIMARY KEY (`_id`));")
print("INSERT INTO `aware_device` (`timestamp`, `device_id`, `board`, `brand`, `label`) VALUES "
      "(1710104400000, '4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11', 'oriole', 'google', 'participant 1; (pilot)');")
print("CREATE TABLE `locations` (`_id` int(11) NOT NULL AUTO_INCREMENT, `timestamp` double DEFAULT '0', "
      "`device_id` varchar(150) DEFAULT '', `double_latitude` double, `double_longitude` double, `provider` text, PRIMARY KEY (`_id`));")
print("INSERT INTO `locations` (`timestamp`, `device_id`, `double_latitude`, `double_longitude`, `provider`) VALUES "
      "(1710136800000, '4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11', 60.1699, 24.9384, 'fused'), "
      "(1710137400000, '4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11', 60.1702, 24.9411, NULL);")
PY
sql < "$work/load.sql"
# --skip-dump-date keeps the files the same from run to run.
mariadb-dump --socket="$work/sock" -u root --skip-dump-date aware > "$out/aware.sql"
mariadb-dump --socket="$work/sock" -u root --skip-dump-date --complete-insert --skip-extended-insert aware > "$out/aware-complete.sql"
echo "wrote $out/aware.sql and $out/aware-complete.sql ($(mariadb --version))"
