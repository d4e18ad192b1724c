package main

import (
	"math/rand/v2"
	"strings"
)

// Templates of plain English Apertium translates well, combined at random
// with a fixed seed: the training text is the same on every run.
var (
	subjects = []string{
		"the teacher", "my friend", "the old farmer", "the young doctor", "our neighbours", "the children",
		"the workers", "the government", "the students", "the company", "her mother", "his father", "the mayor",
		"the team", "the musicians", "the tourists", "the police", "the nurses", "my brother", "your sister",
		"the driver", "the baker", "the fishermen", "the soldiers", "the king", "the queen", "the priest",
		"the lawyer", "the engineers", "the women", "the men", "a small boy", "an old woman", "the family",
		"the director", "the painter", "the writer", "the singer", "the farmers", "the council", "the bank",
		"the museum", "the university", "the hospital", "the school", "the club", "the army", "the church",
		"we", "they", "I", "you", "she", "he",
	}
	pastVerbs = []string{
		"bought a new car", "sold the old house", "opened the window", "closed the door", "wrote a long letter",
		"read the newspaper", "cleaned the kitchen", "cooked a good dinner", "built a stone wall", "painted the fence",
		"visited the museum", "found the key", "lost the money", "called the doctor", "helped the old man",
		"washed the clothes", "drank a cup of coffee", "ate fresh bread", "met the president", "carried the heavy boxes",
		"planted apple trees", "repaired the roof", "sang a beautiful song", "played football", "won the prize",
		"lost the game", "crossed the bridge", "climbed the mountain", "caught a big fish", "paid the bill",
		"signed the contract", "answered the question", "asked for help", "learned a new language", "taught history",
		"watched a film", "heard a strange noise", "saw a white horse", "sent a message", "received a gift",
		"broke the glass", "fixed the machine", "moved to the capital", "left the city", "returned home",
		"bought vegetables", "sold fruit", "opened a shop", "closed the factory", "built a bridge",
		"wrote a book", "read the report", "found a job", "lost the keys", "visited their parents",
		"prepared the meeting", "explained the problem", "changed the plan", "counted the votes", "measured the field",
	}
	presentVerbs = []string{
		"buys bread", "sells fish", "opens the shop", "closes the office", "writes letters", "reads books",
		"cleans the house", "cooks rice", "builds houses", "paints pictures", "visits the village", "finds work",
		"loses patience", "calls the family", "helps the poor", "washes the car", "drinks water", "eats meat",
		"meets friends", "carries wood", "plants flowers", "repairs shoes", "sings in the choir", "plays the guitar",
		"wins the match", "crosses the river", "climbs the hill", "catches the train", "pays the rent",
		"answers the phone", "asks questions", "learns quickly", "teaches music", "watches the sea",
		"hears the bells", "sees the mountains", "sends money", "receives letters", "fixes bicycles",
		"works in the fields", "lives near the church", "walks to school", "runs in the park", "sleeps late",
		"waits for the bus", "looks for a house", "thinks about the future", "speaks three languages",
		"needs more time", "wants a new job", "knows the answer", "likes the summer", "loves the city",
	}
	places = []string{
		"in the village", "at the station", "near the river", "in the mountains", "at home", "in the garden",
		"at the market", "in the office", "on the beach", "in the church", "at the hospital", "in the city centre",
		"in the old town", "on the island", "in the forest", "at the university", "in the kitchen", "on the farm",
		"in the square", "at the port", "in the north", "in the south", "in the capital", "by the sea",
		"in the valley", "on the road", "in the library", "at the school", "in the factory", "in the shop",
	}
	times = []string{
		"yesterday", "last week", "every morning", "on Monday", "in the evening", "after lunch", "in winter",
		"two days ago", "last year", "in the spring", "at night", "on Sunday", "every day", "this morning",
		"last summer", "in autumn", "before dinner", "at noon", "three years ago", "last month",
	}
	clauses = []string{
		"because it was raining", "although they were tired", "and then they went home", "but nobody saw them",
		"so they stayed inside", "while the children were playing", "when the sun was shining",
		"before the storm arrived", "after the war ended", "because the prices were high",
		"and everybody was happy", "but the road was closed", "so the work was finished early",
		"although the water was cold", "because the bus was late", "and the neighbours were angry",
	}
	adjectives = []string{
		"big", "small", "old", "new", "beautiful", "quiet", "busy", "cold", "warm", "dark", "green",
		"famous", "poor", "rich", "long", "short", "important", "difficult", "easy", "strong",
	}
	nouns = []string{
		"house", "city", "river", "road", "book", "garden", "street", "school", "church", "market",
		"village", "window", "country", "family", "story", "lesson", "problem", "question", "answer", "winter",
	}
)

// sentences makes n sentences from the templates.
func sentences(n int) []string {
	r := rand.New(rand.NewPCG(22, 2026))
	pick := func(list []string) string { return list[r.IntN(len(list))] }
	out := make([]string, 0, n)
	for len(out) < n {
		var s string
		switch r.IntN(5) {
		case 0, 1:
			s = pick(subjects) + " " + pick(pastVerbs) + " " + pick(places) + " " + pick(times)
		case 2:
			s = pick(subjects) + " " + pick(pastVerbs) + " " + pick(times) + " " + pick(clauses)
		case 3:
			subj := pick([]string{"the teacher", "my friend", "the farmer", "the doctor", "her mother", "his father", "the driver", "she", "he", "the baker"})
			s = subj + " " + pick(presentVerbs) + " " + pick(places) + " " + pick(times)
		default:
			s = "the " + pick(nouns) + " is " + pick(adjectives) + " and the " + pick(nouns) + " is very " + pick(adjectives) + " " + pick(places)
		}
		out = append(out, strings.ToUpper(s[:1])+s[1:]+".")
	}
	return out
}
