#!/usr/bin/python3
"""
A pywikibot 7.7.3 bot's whole session against one api.php (wikiquery with --upstream): log in with a bot
password, read a page, edit a page and read the edit back on the very next request. Prints `edited` once
the edit is answered, then one JSON object (with the seconds the read-back took).

  PYTHONPATH=<pywikibot 7.7.3 source tree> /usr/bin/python3 test/clients/pywikibot_session.py \
    API_URL USER@APPID PASSWORD TITLE TEXT

Needs Debian's python3-requests and python3-mwparserfromhell. The bot password goes into a password
file of a temporary base directory, as pywikibot's documentation says (never on the command line of a
logged process in production; the test's password is made for the test).
"""
import atexit
import json
import os
import shutil
import sys
import tempfile
import time

api, user, password, title, text = sys.argv[1:6]
base = tempfile.mkdtemp(prefix='pwb-')
atexit.register(shutil.rmtree, base, True)
os.environ['PYWIKIBOT_DIR'] = base
# pywikibot writes its cookie jar, API cache and throttle file into the working directory too
os.chdir(base)
os.environ['PYWIKIBOT_NO_USER_CONFIG'] = '2'
name, appid = user.split('@', 1)
with open(os.path.join(base, 'passwordfile'), 'w', encoding='utf-8') as f:
    f.write(f'({name!r}, BotPassword({appid!r}, {password!r}))\n')
os.chmod(os.path.join(base, 'passwordfile'), 0o600)

import pywikibot  # noqa: E402
from pywikibot import config  # noqa: E402
from pywikibot.family import AutoFamily  # noqa: E402

config.password_file = os.path.join(base, 'passwordfile')
config.put_throttle = 0
config.maxlag = 0
family = 'wq' + ''.join(ch for ch in api.split('//', 1)[-1].split('/', 1)[0] if ch.isdigit())
config.usernames[family]['*'] = name
site = pywikibot.Site(family, AutoFamily(family, api), user=name)
site.login()
out = {'user': site.user(), 'logged_in': site.logged_in()}
out['main_exists'] = pywikibot.Page(site, 'Головна сторінка').exists()
page = pywikibot.Page(site, title)
page.text = text
page.save(summary='pywikibot through wikiquery')
out['saved_revid'] = page.latest_revision_id
print('edited', flush=True)
started = time.monotonic()
# a new Page object: nothing cached, read from the API on the very next request
again = pywikibot.Page(site, title)
out['read_back'] = again.get(force=True)
out['read_seconds'] = time.monotonic() - started
print(json.dumps(out, ensure_ascii=False))
