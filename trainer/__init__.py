"""The rules of cribbage: cards, the show, the play, discards and score distributions.

>>> import trainer
>>> trainer.score_show(["5H", "5D", "5C", "JS"], "5S").total
29
"""

from .breakdown import Kind as Kind
from .breakdown import ScoreItem as ScoreItem
from .cards import DECK as DECK
from .cards import Card as Card
from .cards import DuplicateCardError as DuplicateCardError
from .cards import HandSizeError as HandSizeError
from .cards import InvalidCardError as InvalidCardError
from .cards import Rank as Rank
from .cards import Suit as Suit
from .cards import parse_cards as parse_cards
from .cards import parse_deal as parse_deal
from .rules import RULESETS as RULESETS
from .rules import RuleSet as RuleSet
from .show import Breakdown as Breakdown
from .show import heels as heels
from .show import score_show as score_show
