"""The trick table as a person sees it: at the terminal, and (from the same layout's rows) on the web."""

from __future__ import annotations

import subprocess
import sys

from tapete.web.messages import row as web_row

from .helpers import EAST, NORTH, SOUTH, WEST, position, variants


def rows(deal, seat):
    layout = variants[deal.variant.name].record.layout
    view = deal.view(seat)
    return {r.label: r for r in layout.table(view) + layout.hand(view, deal.legal_actions())}, view


def words(view, r):
    return " ".join(view.deck.format(t) if isinstance(t, int) else str(t) for t in r.cards) + " " + r.note


def test_the_trick_is_drawn_in_the_middle_with_who_played_each_card_and_the_tricks_taken():
    deal = position(
        "hearts/classic",
        to_move=NORTH,
        counters={"played": 2, f"tricks.{WEST}": 2},
        hand0=["A♦", "5♣"],
        hand1=["3♦", "6♣"],
        hand2=["7♦", "8♣"],
        hand3=["Q♠", "4♥"],
    )
    deal.play("play 7♦")
    deal.play("play Q♠")
    table, view = rows(deal, SOUTH)
    assert words(view, table["trick"]).split() == ["seat", "2:", "7♦", "seat", "3:", "Q♠"]
    assert "seat 1 2" in table["tricks taken"].note and table["hearts"].note == "broken"
    web = web_row(view, table["trick"])  # the web table draws the same row
    assert [c for c in web["cards"] if isinstance(c, dict)] and "seat 3:" in web["cards"]
    deal.play("play A♦")
    deal.play("play 3♦")
    table, view = rows(deal, EAST)
    assert "(taken by seat 0)" in words(view, table["last trick"])


def test_the_briscola_table_shows_the_turned_trump_and_the_stock_count():
    deal = variants["briscola/classic"].new_deal(seed=4)
    table, view = rows(deal, deal.to_move)
    turned = deal.state.zones["turned"][0]
    assert table["trump"].cards == (turned,)
    assert table["trump"].note == f"{view.deck.suit_of[turned]} are trumps"
    assert table["stock"].note == "34 cards"  # 33 face down and the turned card


def test_the_table_names_the_suit_whose_breaking_opens_the_lead():
    """HE-3.5 hearts are broken; in Spades it is spades (SP-4.4): the row is named for the suit."""
    for name, suit in (("hearts/classic", "hearts"), ("spades/classic", "spades")):
        deal = variants[name].new_deal(seed=4)
        table, _ = rows(deal, deal.to_move)
        assert table[suit].note == "not broken yet"
        assert ({"hearts", "spades"} - {suit}).isdisjoint(table)  # and not for the other suit


def test_the_pass_prompt_says_how_many_cards_go_where():
    deal = variants["hearts/classic"].new_deal(seed=1)
    seat = deal.to_move
    table, view = rows(deal, seat)
    assert table["to pass"].note == "choose 3 cards to pass to the left"
    deal.play(deal.legal_actions()[0])
    table, view = rows(deal, seat)
    assert table["to pass"].note == "choose 2 cards to pass to the left" and len(table["to pass"].cards) == 1


def test_a_person_passes_and_plays_hearts_at_the_terminal(tmp_path):
    # three passes by number, then a play, then quit (the match is saved in the working folder)
    typed = "1\n1\n1\n1\nquit\n"
    run = subprocess.run(
        [sys.executable, "-m", "tapete", "play", "hearts/classic", "--bots", "human,heuristic", "--seed", "3"],
        input=typed,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    out = run.stdout
    assert "choose 3 cards to pass to the left" in out and "choose 1 card to pass to the left" in out
    assert "the cards are passed to the left" in out and "trick:" in out and "hearts:" in out
    assert "seat 0>" in out and list(tmp_path.glob("*.tapete-save.json"))


def test_the_oh_hell_table_shows_each_seats_bid_and_tricks_and_the_bids_left_to_make():
    # OH-4.2: every bid is announced; OH-4.3: the dealer's prompt leaves out the hook's bid
    deal = position(
        "oh-hell/classic",
        dealer=WEST,
        to_move=NORTH,
        counters={"bidding": 1, "bids": 0, "bids_made": 0, "dealt": 2, "trump": 3},
        hand0=["A♠", "2♥"],
        hand1=["5♠", "9♣"],
        hand2=["8♠", "Q♥"],
        hand3=["J♠", "4♣"],
        turned=["7♥"],
    )
    for move in ("bid one", "bid zero", "bid zero"):
        deal.play(move)
    table, view = rows(deal, WEST)
    assert table["to bid"].note == "bid 0, 2 tricks of 2; bids so far 1"
    # the seats are the helpers' (South 0, West 1, North 2, East 3): North bid first, West deals
    assert table["bids"].note == "seat 0 bid 0, took 0, you -, seat 2 bid 1, took 0, seat 3 bid 0, took 0"
    assert table["trump"].note == "♥ are trumps"
    layout = variants["oh-hell/classic"].record.layout
    assert "bid 1" in layout.seat_facts(view, NORTH)  # the web table writes it by the seat
    assert web_row(view, table["bids"])["note"] == table["bids"].note


def test_a_person_bids_and_plays_oh_hell_at_the_terminal(tmp_path):
    # OH-4.1: the bots on the person's right bid first; the person bids by number, then plays
    run = subprocess.run(
        [sys.executable, "-m", "tapete", "play", "oh-hell/classic", "--bots", "human,heuristic", "--players", "4"]
        + ["--seed", "3"],
        input="bid two\n1\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    out = run.stdout
    assert "to bid:       bid 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 tricks of 10; bids so far 5" in out
    assert "you: bid two - bids 2" in out and "you bid 2, took 0" in out and "trump:" in out
    assert "winner draws" not in out and list(tmp_path.glob("*.tapete-save.json"))
