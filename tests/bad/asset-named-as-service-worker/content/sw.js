self.x = 1;
