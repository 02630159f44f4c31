#!/usr/bin/python3
"""
An mwclient (Debian's python3-mwclient) session against one api.php (wikiquery with --upstream): log in
with a bot password, edit a page, read it back on the next request. Prints `edited` once the edit is
answered, then one JSON object (with the seconds the read-back took).

  /usr/bin/python3 test/clients/mwclient_session.py API_URL USER@APPID PASSWORD TITLE TEXT
"""
import json
import sys
import time

import mwclient

api, user, password, title, text = sys.argv[1:6]
scheme, rest = api.split('//', 1)
host, path = rest.split('/', 1)
# mwclient wants the script path: '/' for http://host/api.php, '/w/' for http://host/w/api.php
script_path = '/' + path[:path.rfind('/') + 1]
site = mwclient.Site(host, path=script_path, scheme=scheme.rstrip(':'), clients_useragent='wikiquery-test')
site.login(user, password)
result = site.pages[title].edit(text, summary='mwclient through wikiquery')
print('edited', flush=True)
started = time.monotonic()
read_back = site.pages[title].text(cache=False)
print(json.dumps({
    'logged_in': site.logged_in,
    'edit': result.get('result'),
    'newrevid': result.get('newrevid'),
    'read_back': read_back,
    'read_seconds': time.monotonic() - started,
}, ensure_ascii=False))
